# Shared helpers of the .ci scripts (sourced, not run). Puts the shell at the repository root.
set -euo pipefail
SLO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$SLO_ROOT"
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"  # emcc needs Debian's acorn (TOOLCHAIN quirk 1)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1                        # tests use /usr/bin/chromium, never a download
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Stage names: native (C++ build + ctest), wasm (module + Node tests vs the CLI), browser (page + Chromium),
# fuzz (libFuzzer targets, ASan + UBSan, a short fixed budget: .ci/fuzz).
ALL_STAGES=(native wasm browser fuzz)
parse_stages() {
  STAGES=()
  local s
  for s in "$@"; do
    case "$s" in
      all) STAGES=("${ALL_STAGES[@]}") ;;
      native|wasm|browser|fuzz) STAGES+=("$s") ;;
      *) echo "unknown stage '$s' (allowed: native, wasm, browser, fuzz, all)" >&2; exit 2 ;;
    esac
  done
  [ ${#STAGES[@]} -gt 0 ] || STAGES=("${ALL_STAGES[@]}")
}
want() { local s; for s in "${STAGES[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

has_browser_tests() {
  [ -d tests/browser ] && [ -n "$(find tests/browser -path '*/node_modules' -prune -o -type f \
    \( -name '*.test.mjs' -o -name '*.test.js' -o -name '*.test.cjs' \) -print -quit)" ]
}
