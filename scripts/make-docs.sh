#!/usr/bin/env bash
# Generates the man page and the shell completions from recorder's command tree (argument-parser),
# into docs/: docs/recorder.1 (swift-argument-parser's generate-manual plugin),
# docs/completions/recorder.{bash,zsh,fish} (recorder --generate-completion-script) and
# docs/configuration.md (recorder config keys --markdown, from the settings' declarations). The
# completions complete values too: pixel formats and presets from lists, cameras by asking
# recorder at completion time.
#   bash scripts/make-docs.sh                  # write docs/
#   bash scripts/make-docs.sh --check          # fail (exit 1) when docs/ is not what the code generates
#   bash scripts/make-docs.sh --check --full   # the same, rendering the man page again
# The man page is the plugin's rendering of the command tree (`recorder --experimental-dump-help`).
# The plugin's tool needs a build of ArgumentParser of its own (40 s alone, 100 s beside the test
# command's other stages), so docs/recorder.1.source records what the committed page was rendered
# from: the command tree's digest, the renderer's version (swift-argument-parser's) and the page's
# own digest (a hand edit shows). --check compares those, and renders the page only with --full.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-write}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
page_source() {
  echo "# What docs/recorder.1 was rendered from: scripts/make-docs.sh writes this, --check compares it."
  echo "command tree (recorder --experimental-dump-help) sha256 $(.build/debug/recorder --experimental-dump-help | sha256sum | cut -d' ' -f1)"
  echo "renderer: swift-argument-parser $(python3 -c 'import json, sys
state = json.load(open(".build/workspace-state.json"))
for dependency in state["object"]["dependencies"]:
    if dependency["packageRef"]["identity"] == "swift-argument-parser":
        print(dependency["state"].get("checkoutState", {}).get("version") or dependency["state"])')"
  # (the date line says when it was rendered, not what it says)
  echo "page sha256 $(grep -v '^\.Dd ' "$1" | sha256sum | cut -d' ' -f1)"
}
mkdir -p "$out/docs/completions"
if [ "$mode" = --check ] && [ "${2:-}" != --full ]; then
  page_source docs/recorder.1 > "$out/recorder.1.source"
  if ! diff -u docs/recorder.1.source "$out/recorder.1.source" > "$out/source.diff"; then
    cat "$out/source.diff"
    echo "FAIL: docs/recorder.1 was not rendered from this command tree (or was edited by hand): run bash scripts/make-docs.sh and commit docs/"
    exit 1
  fi
  cp docs/recorder.1 "$out/docs/recorder.1"
else
  swift package generate-manual --configuration debug > "$out/plugin.log" 2>&1 ||
    { cat "$out/plugin.log" >&2; echo "make-docs: the generate-manual plugin failed" >&2; exit 70; }
  cp .build/plugins/GenerateManual/outputs/recorder/recorder.1 "$out/docs/recorder.1"
fi
page_source "$out/docs/recorder.1" > "$out/docs/recorder.1.source"
for shell in bash zsh fish; do
  .build/debug/recorder --generate-completion-script "$shell" > "$out/docs/completions/recorder.$shell"
done
.build/debug/recorder config keys --markdown > "$out/docs/configuration.md"
if [ "$mode" = --check ]; then
  # The page's date line says when it was generated, not what it says: left out of the comparison.
  # (only what it generates: docs/ also holds the hand-written pages)
  if diff -ru -I '^\.Dd ' docs/recorder.1 "$out/docs/recorder.1" > "$out/diff" && diff -u docs/recorder.1.source "$out/docs/recorder.1.source" >> "$out/diff" &&
     diff -ru docs/completions "$out/docs/completions" >> "$out/diff" &&
     diff -u docs/configuration.md "$out/docs/configuration.md" >> "$out/diff"; then
    echo "PASS: docs/ (man page, completions, configuration keys) is what the code generates"
  else
    head -n 40 "$out/diff"
    echo "FAIL: docs/ is out of date: run bash scripts/make-docs.sh and commit docs/"
    exit 1
  fi
else
  rm -rf docs/recorder.1 docs/recorder.1.source docs/completions docs/configuration.md
  cp -r "$out/docs/." docs/
  echo "wrote docs/recorder.1 (and what it was rendered from, docs/recorder.1.source), docs/completions/recorder.{bash,zsh,fish} and docs/configuration.md"
fi
# The completions complete values, as a person pressing Tab sees them (bash, with the built binary).
offered=$(PATH=$PWD/.build/debug:$PATH bash -c 'source docs/completions/recorder.bash
  COMP_WORDS=(recorder shoot --format ""); COMP_CWORD=3; COMP_LINE="recorder shoot --format "; COMP_POINT=${#COMP_LINE}
  _recorder recorder "" --format; printf "%s " "${COMPREPLY[@]}"
  COMPREPLY=(); COMP_WORDS=(recorder shoot --preset ""); COMP_LINE="recorder shoot --preset "; COMP_POINT=${#COMP_LINE}
  _recorder recorder "" --preset; printf "%s " "${COMPREPLY[@]}"
  COMPREPLY=(); COMP_WORDS=(recorder shoot --device ""); COMP_LINE="recorder shoot --device "; COMP_POINT=${#COMP_LINE}
  _recorder recorder "" --device; printf "%s " "${COMPREPLY[@]}"')
for word in mjpeg yuyv veryfast slow testsrc; do
  case " $offered " in
    *" $word "*) ;;
    *) echo "FAIL: bash completion does not offer '$word' (offered: $offered)"; exit 1 ;;
  esac
done
echo "PASS: bash completion offers formats, presets and cameras ($offered)"
