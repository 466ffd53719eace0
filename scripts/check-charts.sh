#!/usr/bin/env bash
# Renders the standalone pages (ranklab render lab, ranklab render eval on the trec_eval anchor
# 02_trec_graded and on a run pair whose query and doc IDs are hostile markup) and checks them
# in headless Chromium (scripts/check-charts.mjs): every chart container must report
# data-drawn="1" with a non-blank canvas, with no network, no JavaScript error and no dialog.
# Pages and screenshots are kept in ci-artifacts/charts/. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
out=ci-artifacts/charts
rm -rf "$out"; mkdir -p "$out"
[ -d scripts/node_modules/playwright-core ] || { echo "check-charts: scripts/node_modules/playwright-core missing (kernel-setup/setup.sh --ci installs it)"; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "check-charts: ${CHROMIUM:-/usr/bin/chromium} missing"; exit 1; }

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/ranklab" ./cmd/ranklab

pages=()
"$bin/ranklab" render lab --out "$out/lab.html"
pages+=("$out/lab.html=6")
"$bin/ranklab" render lab --k 30 --rerank 0 --grade 2 --corpus 1500 --chunk 200 --overlap 50 --n 40 --seed 3 --out "$out/lab-variant.html"
pages+=("$out/lab-variant.html=6")

anchor=../shared/anchors/trec_eval/02_trec_graded
if [ -d "$anchor" ]; then
  "$bin/ranklab" render eval "$anchor/qrels" "$anchor/run" --out "$out/eval.html"
  pages+=("$out/eval.html=5")
  # A second run: the same documents with scores negated (the ranking reversed).
  awk '{ $5 = -$5; $6 = "reversed"; print }' "$anchor/run" > "$bin/run.reversed"
  "$bin/ranklab" render eval -m P@5 -m nDCG@10 -m AP "$anchor/qrels" "$anchor/run" "$bin/run.reversed" --out "$out/eval-diff.html"
  pages+=("$out/eval-diff.html=9")
else
  echo "check-charts: $anchor absent, skipping the anchor pages"
fi

# Hostile IDs: query and doc IDs that are markup must show as text and never run.
q1='</script><script>alert(1)</script>'
q2="\"'&<img/src='x'/onerror='alert(4)'>"
d1='<img/onerror=alert(2)/src=x>'
printf '%s 0 %s 2\n%s 0 d2 1\n%s 0 %s 1\n%s 0 d3 0\n' "$q1" "$d1" "$q1" "$q2" "$d1" "$q2" > "$bin/qrels.hostile"
printf '%s Q0 %s 1 3.0 <tag>\n%s Q0 d2 2 2.0 <tag>\n%s Q0 d3 1 1.0 <tag>\n%s Q0 %s 2 0.5 <tag>\n' \
  "$q1" "$d1" "$q1" "$q2" "$q2" "$d1" > "$bin/run.hostile"
"$bin/ranklab" render eval -m P@2 -m nDCG@2 "$bin/qrels.hostile" "$bin/run.hostile" --out "$out/eval-hostile.html"
pages+=("$out/eval-hostile.html=2:$q1" "$out/eval-hostile.html=2:$q2")

node scripts/check-charts.mjs "$out" "${pages[@]}"
echo "check-charts: per-page sizes:"; ls -l "$out"/*.html | awk '{ print "  " $9 ": " $5 " bytes" }'
