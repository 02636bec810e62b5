#!/usr/bin/env bash
# The pages as files (Sources/KioskService/Pages: the booth's and the operator's; Sources/ShareServer/Pages:
# the share pages and the host's gallery; Sources/FleetPage/Pages: the fleet's), checked without a browser:
# - node's syntax check of every script (node --check);
# - ESLint, Debian's package, with Tests/pages/eslintrc.json (eslint:recommended, no eval, no var;
#   require-atomic-updates is off: ESLint 6's rule flags every assignment after an await, and the
#   page guards its one such stream with a flag);
# - the HTML holds no inline script, style or event handler (the CSP allows none: they would not
#   run), and no Swift source holds a page;
# - node's test runner on the page logic (Tests/pages/*.test.mjs).
# Each check is first shown to fail on a file made to fail it.
#   bash Tests/pages/check.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
folders=("$repo/Sources/KioskService/Pages" "$repo/Sources/ShareServer/Pages" "$repo/Sources/FleetPage/Pages")
passed=0; failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
command -v node >/dev/null || { echo "FAIL: node is missing (apt-get install nodejs)"; exit 1; }
command -v eslint >/dev/null || { echo "FAIL: eslint is missing (apt-get install eslint)"; exit 1; }
# Debian's eslint finds its own modules in /usr/share/nodejs, which a node not from Debian does not search.
export NODE_PATH=/usr/share/nodejs:/usr/lib/nodejs${NODE_PATH:+:$NODE_PATH}
lint() { eslint --no-eslintrc -c "$here/eslintrc.json" -f unix "$@"; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Each check can fail.
printf 'let x = ;\n' > "$scratch/broken.js"
if node --check "$scratch/broken.js" 2>/dev/null; then fail "node --check passed a script with a syntax error"; else pass "node --check fails a script with a syntax error"; fi
printf 'export const a = 1;\nfunction unused() { return eval("a"); }\n' > "$scratch/lint.js"
if lint "$scratch/lint.js" > /dev/null 2>&1; then fail "eslint passed an unused function calling eval"; else pass "eslint fails an unused function calling eval"; fi
printf '<p style="color: red" onclick="go()">x</p><script>go()</script>\n' > "$scratch/inline.html"

inline() { python3 "$here/inline_check.py" "$@"; }
if [ "$(inline "$scratch/inline.html" | wc -l)" = 3 ]; then pass "the inline check finds an inline script, style and handler"; else fail "the inline check missed an inline script, style and handler"; fi

scripts=(); html=()
for pages in "${folders[@]}"; do
  scripts+=("$pages"/*.js); html+=("$pages"/*.html)
done
for f in "${scripts[@]}"; do
  if out=$(node --check "$f" 2>&1); then pass "node --check $(basename "$(dirname "$(dirname "$f")")")/$(basename "$f")"; else fail "node --check $f: $out"; fi
done
if out=$(lint "${scripts[@]}" "$here"/*.mjs 2>&1); then pass "eslint: the pages' scripts and their tests"; else fail "eslint:"; echo "$out"; fi
if out=$(inline "${html[@]}"); then pass "no inline script, style or handler in the pages' HTML"; else fail "inline script or style in the pages (the CSP refuses them):"; echo "$out"; fi
if out=$(grep -lE '<script[ >]|<style[ >]|<!doctype' "$repo"/Sources/*/*.swift); then fail "pages in Swift sources (put them in a module's Pages folder): $out"; else pass "no page in a Swift source"; fi
if out=$(cd "$repo" && node --test Tests/pages/ 2>&1); then
  pass "node --test Tests/pages: $(echo "$out" | sed -n 's/^# pass /passed /p')"
else
  fail "node --test Tests/pages:"; echo "$out" | grep -E "^not ok|Error|expected|actual" | head -40
fi
echo "pages: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
