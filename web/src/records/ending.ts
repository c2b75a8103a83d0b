// The words for how a finished game ended (the record's winner and reason).

import { t, type MsgKey } from '../i18n/i18n';

/** Why the game ended (`reason_resign` → "resignation"), or "Unfinished" without a reason. */
export function reasonText(r: string | null): string {
  if (!r) return t('noResult');
  return t(`reason_${r}` as MsgKey) ?? r;
}

/** Who won and why: "Sente wins (resignation)", "Draw (…)", or "Unfinished". */
export function resultText(winner: string | null, reason: string | null): string {
  if (!reason) return t('noResult');
  const head = winner === 'sente' ? t('senteWins') : winner === 'gote' ? t('goteWins') : t('draw');
  return `${head} (${reasonText(reason)})`;
}
