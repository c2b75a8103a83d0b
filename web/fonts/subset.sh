#!/usr/bin/env bash
# Makes the two fonts the app serves, cut from Noto CJK (SIL Open Font
# License 1.1, web/fonts/OFL.txt), so that Japanese reads on a machine
# without Japanese fonts:
#
# - web/public/assets/pieces.woff2, the board's piece font: the 15
#   characters the pieces are drawn with, from Noto Serif CJK JP Bold;
# - web/public/assets/japanese.woff2, the page's Japanese text (the
#   Japanese interface, players' names, record text): from Noto Sans CJK JP
#   Regular, every kana, kanji and full-width character of Shift_JIS
#   (JIS X 0208 with Windows' CP932 additions, such as 髙 and 﨑) and of
#   EUC-JP, about 7,100 characters. base.css names it after the Japanese
#   fonts of Windows, macOS and Linux, so that only a browser without one
#   fetches it, and only for a page with Japanese on it (`unicode-range`).
#
# Needs Debian's fonts-noto-cjk and fontTools (pip install fonttools
# brotli). The output is committed; this is only run to change it.
set -euo pipefail
cd "$(dirname "$0")/.."
noto=/usr/share/fonts/opentype/noto
pyftsubset "$noto/NotoSerifCJK-Bold.ttc" --font-number=0 \
  --text='玉王飛角金銀桂香歩龍馬全圭杏と' --flavor=woff2 --layout-features='' \
  --no-hinting --desubroutinize --name-IDs='*' \
  --output-file=public/assets/pieces.woff2
chars=$(mktemp)
trap 'rm -f "$chars"' EXIT
python3 - "$chars" <<'PY'
import sys

found = set()
lead = list(range(0x81, 0xA0)) + list(range(0xE0, 0xFD))
trail = list(range(0x40, 0x7F)) + list(range(0x80, 0xFD))
pairs = [(bytes([a, b]), "cp932") for a in lead for b in trail]
pairs += [(bytes([a, b]), "euc_jp") for a in range(0xA1, 0xFF) for b in range(0xA1, 0xFF)]
for raw, codec in pairs:
    try:
        found.add(raw.decode(codec))
    except UnicodeDecodeError:
        pass
found |= {chr(c) for c in range(0xFF61, 0xFFA0)}  # half-width katakana

# The blocks base.css's unicode-range gives this font (keep them alike).
blocks = [(0x2460, 0x24FF), (0x3000, 0x30FF), (0x3200, 0x33FF),
          (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF)]
keep = sorted(c for c in found
              if len(c) == 1 and any(lo <= ord(c) <= hi for lo, hi in blocks))
open(sys.argv[1], "w", encoding="utf-8").write("".join(keep))
PY
pyftsubset "$noto/NotoSansCJK-Regular.ttc" --font-number=0 \
  --text-file="$chars" --flavor=woff2 --layout-features='' \
  --no-hinting --desubroutinize --name-IDs='*' \
  --output-file=public/assets/japanese.woff2
