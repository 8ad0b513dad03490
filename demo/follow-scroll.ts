/**
 * Keeps a scrolling list following its newest entries while the user is at its end. Whether the
 * user is following is remembered from their own scrolling, not measured when new entries land:
 * by then a bar shown or hidden beside the list (ADK's confirmation) may have changed its height,
 * and a measurement would take that for the user scrolling away. The list also stays at its end
 * when its own box changes size while followed.
 */

/** How close to the end (px) still counts as at the end. */
const SLACK = 48;

export class FollowScroll {
  private following = true;
  /** Where the last scroll made here left the list: the scroll event it fires is not the user's. */
  private placedAt: number | undefined;

  constructor(private readonly scroller: HTMLElement) {
    scroller.addEventListener('scroll', () => {
      if (this.placedAt !== undefined && Math.abs(scroller.scrollTop - this.placedAt) < 1) return;
      this.placedAt = undefined;
      this.following = this.atEnd();
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
    this.placedAt = s.scrollTop;
  }
}
