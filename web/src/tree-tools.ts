// SPDX-License-Identifier: GPL-3.0-or-later
// TreeTools: the controls under the move list that edit the tree at the viewed move (Analysis):
// promote the variation, make it the main line, delete from here, move and position glyphs, the
// comment (its text; the [%clk]/[%eval]/arrow commands it carried stay).

import { makeComment, parseComment } from 'chessops/pgn';
import { byTestId } from './dom';
import type { GameModel, MoveNode } from './game';
import { commentText } from './pgn';

/** NAGs of the move glyph select ($1..$7) and of the position glyph select ($10, $13..$19). */
const kMoveGlyphs = [1, 2, 3, 4, 5, 6, 7];
const kPositionGlyphs = [10, 13, 14, 15, 16, 17, 18, 19];

export interface TreeToolsHost {
  game(): GameModel;
  /** The viewed move (the root for the start position). */
  viewed(): MoveNode;
  /** Whether the tree may be edited now (Analysis, no review running). */
  editable(): boolean;
  /** The tree changed around the viewed move; redraw. */
  changed(): void;
  /** `node` and what follows it are about to go. */
  deleting(node: MoveNode): void;
  /** The viewed move was deleted: `parent` is to be viewed. */
  deleted(parent: MoveNode): void;
}

export class TreeTools {
  private readonly m_promote = byTestId<HTMLButtonElement>('promote-variation');
  private readonly m_mainline = byTestId<HTMLButtonElement>('make-mainline');
  private readonly m_delete = byTestId<HTMLButtonElement>('delete-move');
  private readonly m_moveGlyph = byTestId<HTMLSelectElement>('move-glyph');
  private readonly m_positionGlyph = byTestId<HTMLSelectElement>('position-glyph');
  private readonly m_comment = byTestId<HTMLTextAreaElement>('comment-input');

  constructor(private readonly m_host: TreeToolsHost) {
    this.m_promote.addEventListener('click', () => {
      this.m_host.game().promote(this.m_host.viewed());
      this.m_host.changed();
    });
    this.m_mainline.addEventListener('click', () => {
      this.m_host.game().promote(this.m_host.viewed(), true);
      this.m_host.changed();
    });
    this.m_delete.addEventListener('click', () => {
      const node = this.m_host.viewed();
      if (!node.parent) return;
      this.m_host.deleting(node);
      const parent = this.m_host.game().deleteNode(node);
      this.m_host.game().select(parent);
      this.m_host.deleted(parent);
    });
    this.m_moveGlyph.addEventListener('change', () => this.setGlyph(this.m_moveGlyph, kMoveGlyphs));
    this.m_positionGlyph.addEventListener('change', () => this.setGlyph(this.m_positionGlyph, kPositionGlyphs));
    this.m_comment.addEventListener('change', () => this.setComment());
  }

  render(): void {
    const game = this.m_host.game();
    const node = this.m_host.viewed();
    const editable = this.m_host.editable();
    const onMove = editable && node.parent !== null;
    this.m_promote.disabled = !onMove || game.isMainline(node);
    this.m_mainline.disabled = !onMove || game.isMainline(node);
    this.m_delete.disabled = !onMove;
    this.m_moveGlyph.disabled = !onMove;
    this.m_positionGlyph.disabled = !onMove;
    this.m_comment.disabled = !editable;
    if (document.activeElement !== this.m_comment) this.m_comment.value = node.comments.map(commentText).filter(Boolean).join(' ');
    this.m_comment.placeholder = node.move ? `Comment on ${node.move.san}` : 'Comment on the game';
    this.m_moveGlyph.value = String(node.nags.find((nag) => kMoveGlyphs.includes(nag)) ?? '');
    this.m_positionGlyph.value = String(node.nags.find((nag) => kPositionGlyphs.includes(nag)) ?? '');
  }

  /** One glyph of `group` at most: the chosen one replaces the one there. */
  private setGlyph(select: HTMLSelectElement, group: number[]): void {
    const node = this.m_host.viewed();
    const kept = node.nags.filter((nag) => !group.includes(nag));
    const chosen = Number(select.value);
    node.nags = chosen ? [...kept, chosen].sort((a, b) => a - b) : kept;
    this.m_host.changed();
  }

  private setComment(): void {
    const node = this.m_host.viewed();
    const text = this.m_comment.value.trim();
    if (text === node.comments.map(commentText).filter(Boolean).join(' ')) return;
    // The text changes; the clock, evaluation and arrows the comments carried stay.
    const parsed = node.comments.map((comment) => parseComment(comment));
    const commands = {
      shapes: parsed.flatMap((c) => c.shapes),
      clock: parsed.find((c) => c.clock !== undefined)?.clock,
      emt: parsed.find((c) => c.emt !== undefined)?.emt,
      evaluation: parsed.find((c) => c.evaluation)?.evaluation,
    };
    const comment = makeComment({ ...commands, text: text || undefined });
    node.comments = comment ? [comment] : [];
    this.m_host.changed();
  }
}
