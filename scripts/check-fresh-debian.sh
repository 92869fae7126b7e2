#!/usr/bin/env bash
# Checks the README's two commands on a bare Debian 12, as a new user meets
# them: a minbase root made by debootstrap from the Debian mirror this
# machine's apt already uses (bookworm, bookworm-updates and
# bookworm-security where this machine names them, as a standard install
# has), with only Debian's packages and the npm registry reachable.  Into it:
# the host's CA bundle and resolver configuration (so that the root reaches
# the network as this machine does: node is pointed at the bundle with
# NODE_EXTRA_CA_CERTS, since it trusts only its own list otherwise), /proc
# and /dev mounted, and
# a clean clone of the committed HEAD of this checkout; then, inside a chroot
# with an empty environment, each command of the README's first sh block that
# starts with ./scripts/setup.sh.  The test command also passes only if
# ctest really ran the browser test (a skip is a failure here).
#
# usage: sudo scripts/check-fresh-debian.sh [WORK_DIR]
#   WORK_DIR (default /var/tmp/pascal-fresh-debian) is wiped and rebuilt at
#   every run, so the check is the same each time; it holds root/ (the
#   Debian root, removed after a pass, kept after a failure) and one log per
#   command.  PASCAL_FRESH_MIRROR=URL overrides the mirror.
# Prints PASS or FAIL per command and the time taken; exit status 0 when
# both pass, 1 when one fails, 2 when the check itself cannot run.
# Slow (a Debian root, Chromium, a full build and test): not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
work=${1:-/var/tmp/pascal-fresh-debian}
root=$work/root
started=$SECONDS

die() { echo "check-fresh-debian: $*" >&2; exit 2; }

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot and mount need it)"
for tool in debootstrap chroot git mount umount findmnt; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found (apt-get install debootstrap util-linux git)"
done
[ -f /etc/ssl/certs/ca-certificates.crt ] || die "no CA bundle at /etc/ssl/certs/ca-certificates.crt"
case "$work" in /|/tmp|/var/tmp|/root|/home|"") die "refusing to use $work as the work folder" ;; esac

# The mounts under the root, deepest first.
mounts_under() {
  findmnt -rn -o TARGET | awk -v r="$1" 'index($0, r "/") == 1' | sort -r
}

unmount_all() {
  local m
  for m in $(mounts_under "$root"); do
    umount -R "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
}

# Removes the root, but never while anything is still mounted inside it
# (a bind-mounted /dev would take the host's with it).
remove_root() {
  unmount_all
  if [ -n "$(mounts_under "$root")" ]; then
    echo "check-fresh-debian: still mounted under $root, not removing it:" >&2
    mounts_under "$root" >&2
    return 1
  fi
  rm -rf --one-file-system "$root"
}
trap unmount_all EXIT
trap 'exit 130' INT TERM

# "deb822" stanzas (*.sources) first, then one-line sources: the first URI
# whose suites include $1.
mirror_for() {
  local suite=$1 f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v want="$suite" '
      function flush() { if (ok && uri != "" && !done) { print uri; done = 1 } ok = 0; uri = "" }
      /^[ \t]*$/ { flush(); next }
      /^URIs:/ { uri = $2 }
      /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == want) ok = 1 }
      END { flush() }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v want="$suite" '$1 == "deb" {
      n = 2; if ($2 ~ /^\[/) { while ($n !~ /\]$/) n++; n++ }
      if ($(n + 1) == want) print $n }' "$f"
  done
}

mirror=${PASCAL_FRESH_MIRROR:-$(mirror_for bookworm | head -n 1)}
updates=$(mirror_for bookworm-updates | head -n 1)
security=$(mirror_for bookworm-security | head -n 1)
[ -n "$mirror" ] || die "no bookworm mirror in /etc/apt/sources.list.d or /etc/apt/sources.list (set PASCAL_FRESH_MIRROR)"

commit=$(git -C "$src" rev-parse HEAD)
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
  echo "check-fresh-debian: note: uncommitted changes are not part of the check (HEAD is $commit)" >&2
mapfile -t commands < <(awk '/^```sh$/ { inblock = 1; next } /^```$/ { if (inblock) exit } inblock && /^\.\/scripts\/setup\.sh/' README.md)
[ ${#commands[@]} -gt 0 ] || die "README.md's first sh block has no ./scripts/setup.sh command"

mkdir -p "$work"
remove_root || die "could not clear $root"
rm -f "$work"/*.log

echo "check-fresh-debian: debootstrap --variant=minbase bookworm from $mirror" >&2
if ! debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
  tail -n 20 "$work/debootstrap.log" >&2
  die "debootstrap failed (log: $work/debootstrap.log)"
fi
{
  echo "deb $mirror bookworm main"
  [ -z "$updates" ] || echo "deb $updates bookworm-updates main"
  [ -z "$security" ] || echo "deb $security bookworm-security main"
} >"$root/etc/apt/sources.list"
# Installing ca-certificates in the root rebuilds ca-certificates.crt from
# Debian's list, so the host's bundle is also kept under its own name.
mkdir -p "$root/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/host-ca-bundle.crt"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"

git clone -q --no-hardlinks "$src" "$root/root/pascal"
git -C "$root/root/pascal" checkout -q --detach "$commit"

# Runs $2 in the root's checkout with an empty environment; PASS or FAIL.
failed=0
run_in_root() {
  local n=$1 cmd=$2 log=$work/command-$1.log t0=$SECONDS rc=0
  echo "check-fresh-debian: [$n] $cmd" >&2
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca-bundle.crt \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd /root/pascal && $cmd" >"$log" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ] && [[ $cmd == *ctest* ]] && ! grep -Eq 'report_browser \.+ +Passed' "$log"; then
    echo "check-fresh-debian: the browser test did not run and pass:" >&2
    grep -E 'report_browser' "$log" >&2 || true
    rc=1
  fi
  if [ "$rc" -eq 0 ]; then
    echo "PASS [$n] $cmd ($((SECONDS - t0)) s)"
  else
    tail -n 30 "$log" >&2
    echo "FAIL [$n] $cmd (exit $rc, $((SECONDS - t0)) s, log $log)"
    failed=1
  fi
}

for i in "${!commands[@]}"; do
  run_in_root $((i + 1)) "${commands[$i]}"
done
versions=$(chroot "$root" /bin/sh -c 'echo "Debian $(cat /etc/debian_version), node $(node --version 2>&1), npm $(npm --version 2>&1), $(chromium --version 2>/dev/null | head -n 1)"')
echo "check-fresh-debian: $versions; commit $commit; $((SECONDS - started)) s in all"
if [ "$failed" -eq 0 ]; then
  remove_root || true
  echo "check-fresh-debian: PASS"
  exit 0
fi
unmount_all
echo "check-fresh-debian: FAIL (the root is kept in $root for a look)"
exit 1
