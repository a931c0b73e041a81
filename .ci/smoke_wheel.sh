#!/usr/bin/env bash
# Smoke test of the built wheel, as a user who never cloned the repository runs it: install the
# wheel into a fresh virtual environment outside the checkout and run pnp from an empty folder.
#
# Usage: .ci/smoke_wheel.sh WHEEL REFERENCE_OUTPUT
#   WHEEL             a built dist/pnp_toolkit-*.whl
#   REFERENCE_OUTPUT  the output/ folder an editable `pnp build` wrote: the wheel's kits must be
#                     byte-identical to it
# Every PDF produced is opened with pypdf by the `python` on PATH (the test environment).
# Any failure exits non-zero and names the step.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 WHEEL REFERENCE_OUTPUT" >&2
  exit 2
fi
wheel=$(realpath "$1")
reference=$(realpath "$2")
checker=$(command -v python)
step="setup"
trap 'echo "smoke_wheel: FAILED at: $step" >&2' ERR

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset PNP_HOME

step="install the wheel into a fresh venv ($work/venv)"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$wheel"
mkdir "$work/run"
cd "$work/run"

run() {
  step="pnp $*"
  echo "== $step" >&2
  "$work/venv/bin/pnp" "$@"
}

step="pnp reads the data copied into the installed package, not a checkout"
"$work/venv/bin/python" -c 'import sys, pnp.paths as p; sys.exit(0 if p.IN_PACKAGE else f"pnp reads {p.ROOT}")'

games=$(run list)
for game in age-of-civilization ancient-civilizations the-ancient-world; do
  step="pnp list shows $game"
  grep -qx "$game" <<<"$games"
done

run new "Wheel Game" >/dev/null
run validate "Wheel Game"
run build "Wheel Game"
run simulate "Wheel Game" --games 50 >/dev/null
run schemas "Wheel Game" >/dev/null

run build ancient-civilizations
run simulate ancient-civilizations --games 20 >/dev/null
run render rulesheet ancient-civilizations
run build age-of-civilization the-ancient-world >/dev/null
for game in age-of-civilization ancient-civilizations the-ancient-world; do
  step="output/$game is byte-identical to the editable build's $reference/$game"
  diff -r --brief "output/$game" "$reference/$game"
done

step="every PDF opens"
"$checker" - output <<'EOF'
import sys
from pathlib import Path

from pypdf import PdfReader

pdfs = sorted(Path(sys.argv[1]).rglob("*.pdf"))
for pdf in pdfs:
    reader = PdfReader(pdf, strict=True)
    if not reader.pages:
        sys.exit(f"{pdf}: no pages")
    for page in reader.pages:
        page.get_contents()
if not pdfs:
    sys.exit("no PDFs under output/")
print(f"{len(pdfs)} PDFs open", file=sys.stderr)
EOF

echo "smoke_wheel: the wheel works from $work/run" >&2
