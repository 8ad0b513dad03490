/**
 * Keeps a scrolling list following its newest entries while the user is at its end. Whether the
 * user is following is remembered from their own scrolling, not measured when new entries land:
 * by then a bar shown or hidden beside the list (ADK's confirmation) may have changed its height,
 * and a measurement would take that for the user scrolling away. Only a scroll up leaves the end:
 * the browser moves a list down by itself (scroll anchoring as the bar appears, the list's own
 * jumps to its end), and a user who scrolls away from the newest entries scrolls up. The list also
 * stays at its end when its own box changes size while followed.
 */

/** How close to the end (px) still counts as at the end. */
const SLACK = 48;

export class FollowScroll {
  private following = true;
  /** Where the list was at its last scroll event or the last move made here. */
  private lastTop = 0;

  constructor(private readonly scroller: HTMLElement) {
    scroller.addEventListener('scroll', () => {
      const top = scroller.scrollTop;
      if (this.atEnd()) this.following = true;
      else if (top < this.lastTop) this.following = false;
      this.lastTop = top;
    });
    new ResizeObserver(() => {
      if (this.following) this.toEnd();
    }).observe(scroller);
  }

  /** Whether the list is followed: new entries bring it to its end. */
  get isFollowing(): boolean {
    return this.following;
  }

  /** Follows from now on (a newly opened list starts at its newest entries). */
  follow(): void {
    this.following = true;
    this.toEnd();
  }

  /** After entries were added: to the end if the user was following. */
  added(): void {
    if (this.following) this.toEnd();
  }

  private atEnd(): boolean {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight < SLACK;
  }

  private toEnd(): void {
    const s = this.scroller;
    s.scrollTop = s.scrollHeight;
    this.lastTop = s.scrollTop;
  }
}
