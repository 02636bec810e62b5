#!/usr/bin/env bash
# Builds recorder's Debian package with Debian's own tools and prints its path,
# dist/recorder_<version>_<arch>.deb:
#   bash scripts/package.sh                        # the release build (scripts/build-release.sh), then the package
#   VERSION=0.5.0+1 bash scripts/package.sh        # another version (the CI's upgrade test packages "a newer build")
#   RECORDER_BINARY=FILE bash scripts/package.sh   # a release binary built already (no build)
# What goes where, and why: docs/kiosk.md ("Install the package"). Depends: dpkg-shlibdeps for the
# libraries the binary links, the shlibs of the libraries it opens with dlopen (FFmpeg's: their
# sonames are in the binary), and the fonts the highlight reel's title cards use.
set -euo pipefail
umask 022
cd "$(dirname "$0")/.."
repo=$PWD
die() { echo "package: $1" >&2; exit "${2:-70}"; }
for tool in dpkg-deb dpkg-shlibdeps readelf; do
  command -v "$tool" > /dev/null || die "$tool is missing: apt-get install dpkg-dev binutils" 69
done

version=${VERSION:-$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' Sources/Settings/RecorderVersion.swift)}
# A native package's version: no Debian revision (no "-").
[[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]] ||
  die "VERSION=$version is not a version for this package: a digit first, then letters, digits and . + ~ (e.g. 0.5.0+1)" 64
arch=$(dpkg --print-architecture)
binary=${RECORDER_BINARY:-$(bash scripts/build-release.sh)}
[ -f "$binary" ] && [ -x "$binary" ] || die "RECORDER_BINARY=$binary is not an executable file" 66
if readelf -d "$binary" | grep -E '\((RUNPATH|RPATH)\)' > /dev/null; then
  die "$binary has a library search path (readelf -d: RUNPATH); build it with scripts/build-release.sh (--disable-local-rpath)" 65
fi
# The binary is held at 24 MiB (issue 51): the table scripts/build-release.sh printed above
# (scripts/binary-size.py) says what each module adds.
limit=$((24 * 1024 * 1024))
bytes=$(stat -c %s "$binary")
[ "$bytes" -le "$limit" ] ||
  die "$binary is $bytes bytes, over the $limit (24 MiB) a package may hold: the table of scripts/build-release.sh (python3 scripts/binary-size.py .build/release/recorder.map .build/release/recorder) says which module adds what"

# The Swift packages linked into the binary each need their paragraph in the copyright file.
links=.build/release/recorder.product/Objects.LinkFileList
if [ -f "$links" ] && [ "$(realpath "$binary")" = "$(realpath .build/release/recorder)" ]; then
  modules=$(sed -n 's|.*/\([^/]*\)\.build/[^/]*$|\1|p' "$links" | sort -u)
  for checkout in .build/checkouts/*/; do
    name=$(basename "$checkout")
    for module in $modules; do
      [ -d "$checkout/Sources/$module" ] || continue
      grep -qE "^(Files:)? *\.build/checkouts/$name/\*" packaging/deb/copyright ||
        die "the binary links $name (module $module), which packaging/deb/copyright does not name: add its copyright and license there"
      break
    done
  done
fi

mkdir -p dist
stage=$(mktemp -d "$repo/dist/.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/root
# put SOURCE DEST MODE: one file into the package's tree.
put() { install -D -m "$3" "$1" "$root/$2"; }

put "$binary" usr/bin/recorder 755
put systemd/recorder.service lib/systemd/system/recorder.service 644
put systemd/recorder-sysusers.conf usr/lib/sysusers.d/recorder.conf 644
# The package's own settings: where the service keeps the booth's data and its secrets' files,
# read by every command beneath /etc/recorder/recorder.conf (not a conffile: replaced on upgrades).
put systemd/recorder-package.conf usr/lib/recorder/recorder.conf 644
put systemd/60-recorder-camera.rules lib/udev/rules.d/60-recorder-camera.rules 644
put systemd/61-recorder-button.rules lib/udev/rules.d/61-recorder-button.rules 644
put systemd/recorder.conf etc/recorder/recorder.conf 644
put systemd/nginx-recorder.conf etc/nginx/sites-available/recorder 644
# The share server that keeps links working after the event (recorder serve, not enabled) and the
# public name's nginx site in front of it (docs/venue.md, "Links that still work at home").
put systemd/recorder-serve.service lib/systemd/system/recorder-serve.service 644
put systemd/nginx-recorder-serve.conf etc/nginx/sites-available/recorder-serve 644
# What every server a phone reaches shares (the event's network above, the booth's own Wi-Fi
# below): the http-level names (conf.d: nginx reads it itself; it opens no port) and the share
# locations each server includes.
put systemd/nginx-recorder-http.conf etc/nginx/conf.d/recorder.conf 644
put systemd/nginx-recorder-share.conf etc/nginx/snippets/recorder-share.conf 644
# The booth's own Wi-Fi (hostapd, dnsmasq, nginx's answers to the phones' probes): whatever
# systemd/wifi/ holds, as conffiles the organiser edits (name, password, address); a unit there
# goes beside recorder's, not enabled.
if [ -d systemd/wifi ]; then
  while IFS= read -r -d '' file; do
    rel=${file#systemd/wifi/}
    mode=644; [ -x "$file" ] && mode=755
    case "$rel" in
      *.service|*.socket|*.timer|*.path|*.target) put "$file" "lib/systemd/system/${rel##*/}" 644 ;;
      *) put "$file" "etc/recorder/wifi/$rel" "$mode" ;;
    esac
  done < <(find systemd/wifi -type f -print0 | sort -z)
fi
# (an empty line in the generated page is a paragraph break, which mdoc spells .Pp: man --warnings)
mkdir -p "$root/usr/share/man/man1"
sed 's/^$/.Pp/' docs/recorder.1 | gzip -9n > "$root/usr/share/man/man1/recorder.1.gz"
# (bash-completion sources the file: no #! line)
mkdir -p "$root/usr/share/bash-completion/completions"
sed '1{/^#!/d}' docs/completions/recorder.bash > "$root/usr/share/bash-completion/completions/recorder"
put docs/completions/recorder.zsh usr/share/zsh/vendor-completions/_recorder 644
put docs/completions/recorder.fish usr/share/fish/vendor_completions.d/recorder.fish 644
# The fleet's alert rules, Grafana dashboard and scrape example (issue 54), for a Prometheus server
# to read in place (rule_files: /usr/share/recorder/prometheus/recorder-alerts.yml).
for file in packaging/prometheus/*; do put "$file" "usr/share/recorder/prometheus/${file##*/}" 644; done
doc=usr/share/doc/recorder
put packaging/deb/copyright "$doc/copyright" 644
# The documentation, compressed above 4 kB as policy 12.3 asks.
for file in README.md docs/*.md; do
  put "$file" "$doc/${file##*/}" 644
  [ "$(stat -c %s "$file")" -le 4096 ] || gzip -9n "$root/$doc/${file##*/}"
done
commit=$(git rev-parse --short=12 HEAD 2> /dev/null || echo unknown)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2> /dev/null || date +%s)}
{
  printf 'recorder (%s) unstable; urgency=medium\n\n' "$version"
  printf '  * Built by scripts/package.sh from commit %s.\n\n' "$commit"
  printf ' -- %s  %s\n' "$(sed -n 's/^Maintainer: //p' packaging/deb/control.in)" "$(date -R -u -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$root/$doc/changelog.gz"

# Depends. dpkg-shlibdeps reads a source package's debian/control: a minimal one, in a scratch folder.
mkdir -p "$stage/src/debian"
printf 'Source: recorder\n\nPackage: recorder\nArchitecture: any\n' > "$stage/src/debian/control"
linked=$(cd "$stage/src" && dpkg-shlibdeps -O -e "$root/usr/bin/recorder" 2> "$stage/shlibdeps.err") ||
  { cat "$stage/shlibdeps.err" >&2; die "dpkg-shlibdeps failed on $binary"; }
linked=${linked#shlibs:Depends=}
# Packed relocations (DT_RELR, scripts/build-release.sh) need glibc 2.36: a version the binary asks
# for with no symbol in it, which dpkg-shlibdeps does not see.
if readelf -V "$binary" | grep -q GLIBC_ABI_DT_RELR; then
  glibc=$(sed -n 's/.*libc6 (>= \([^)]*\)).*/\1/p' <<< "$linked")
  if [ -z "$glibc" ]; then
    linked="$linked, libc6 (>= 2.36)"
  elif dpkg --compare-versions "$glibc" lt 2.36; then
    linked=${linked/"libc6 (>= $glibc)"/"libc6 (>= 2.36)"}
  fi
fi
# Libraries opened with dlopen (FFmpeg's, Sources/CFFmpeg/shim.h): their sonames are string literals
# in the binary; each is taken to its package's shlibs entry, as dpkg-shlibdeps does for a linked one.
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
opened=()
for soname in $(strings -n 8 "$binary" | grep -E '^lib[A-Za-z0-9_+-]+\.so\.[0-9]+$' | sort -u); do
  grep -qxF "$soname" <<< "$needed" && continue
  # (awk reads all of ldconfig's list: an early exit would kill ldconfig with SIGPIPE, and pipefail the script)
  path=$(ldconfig -p | awk -v s="$soname" '$1 == s && !found { print $NF; found = 1 }')
  [ -n "$path" ] || die "the binary opens $soname, which is not installed here: install its package (scripts/setup.sh run) so its Depends can be found" 69
  owner=$(dpkg -S "$(realpath "$path")" 2> /dev/null || dpkg -S "$path" 2> /dev/null || dpkg -S "/usr$path" 2> /dev/null) ||
    die "no package owns $path ($soname)" 69
  pkg=${owner%%:*}
  name=${soname%%.so.*}; major=${soname##*.so.}
  entry=$(dpkg-query --control-show "$pkg" shlibs 2> /dev/null | awk -v n="$name" -v m="$major" '$1 == n && $2 == m { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }')
  [ -n "$entry" ] || die "$pkg has no shlibs entry for $soname" 69
  opened+=("$entry")
done
[ ${#opened[@]} -gt 0 ] || die "found no library the binary opens with dlopen (FFmpeg's sonames): is $binary recorder?" 65
# The highlight reel's title cards (libass): DejaVu Sans for the words, Symbola for the guests' emoji.
depends=$(printf '%s\n' "$linked" "${opened[@]}" fonts-dejavu-core fonts-symbola | sed 's/, /\n/g' | sort -u | paste -sd, | sed 's/,/, /g')

# Every file's time is the commit's, so the same tree makes the same package.
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$root/DEBIAN"
size=$(du -k -s --apparent-size --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
  packaging/deb/control.in > "$root/DEBIAN/control"
(cd "$root" && find etc -type f | sort | sed 's|^|/|') > "$root/DEBIAN/conffiles"
(cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"
for script in postinst prerm postrm; do install -m 755 "packaging/deb/$script" "$root/DEBIAN/$script"; done
find "$root" -type d -exec chmod 755 {} +

deb=$repo/dist/recorder_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb.tmp" > /dev/null
mv "$deb.tmp" "$deb"
echo "package: $(dpkg-deb -f "$deb" Package) $version ($arch), $(du -h "$deb" | cut -f1); Depends: $depends" >&2
echo "$deb"
