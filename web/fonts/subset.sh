#!/usr/bin/env bash
# Makes web/public/assets/pieces.woff2, the board's piece font: the 15
# characters the pieces are drawn with, cut from Noto Serif CJK JP Bold
# (SIL Open Font License 1.1, web/fonts/OFL.txt), so that the pieces read
# on a machine without Japanese fonts. Needs Debian's fonts-noto-cjk and
# fontTools (pip install fonttools brotli). The output is committed; this
# is only run to change it.
set -euo pipefail
cd "$(dirname "$0")/.."
pyftsubset /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc --font-number=0 \
  --text='玉王飛角金銀桂香歩龍馬全圭杏と' --flavor=woff2 --layout-features='' \
  --no-hinting --desubroutinize --name-IDs='*' \
  --output-file=public/assets/pieces.woff2
