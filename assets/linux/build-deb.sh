#!/usr/bin/env bash
# Builds the Debian package into target/debian/ (in CARGO_TARGET_DIR when set): racksmith_VERSION-1_ARCH.deb, and
# racksmith-dbgsym_VERSION-1_ARCH.ddeb with the debug symbols the package's binary was stripped of.
#
#   1. the binary, in the `dist` profile (Cargo.toml: the release build with line tables);
#   2. its man pages and bash, zsh and fish completions, which that binary writes from its own command-line
#      definition (`racksmith generate-assets`) into target/linux-assets/;
#   3. `cargo deb`, which strips the binary, moves the symbols to the dbgsym package and packages the files listed
#      in [package.metadata.deb] (binary, desktop entry, MIME type, icons, man pages, completions, samples, docs).
#
# RACKSMITH_DEB_PROFILE picks another Cargo profile (CI packages the `dev` binary it has already built, to test the
# package's install, MIME type, menu entry and man pages without a second full build; a user's package is `dist`).
#
# Needs cargo-deb (`cargo install cargo-deb --locked`) and binutils (objcopy, strip). Install the result with
# `sudo dpkg -i target/debian/racksmith_*.deb` (or `sudo apt install ./target/debian/racksmith_*.deb`, which also
# installs the libraries it depends on).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! cargo deb --version >/dev/null 2>&1; then
  echo "error: cargo-deb is missing: cargo install cargo-deb --locked" >&2
  exit 2
fi
target="${CARGO_TARGET_DIR:-target}"
profile="${RACKSMITH_DEB_PROFILE:-dist}"
# Cargo's folder for a profile: dev builds go to target/debug.
dir="$profile"
if [ "$profile" = dev ]; then dir=debug; fi
started="$(date +%s)"

cargo build --profile "$profile" --locked --bin racksmith

# Listed in [package.metadata.deb] as target/linux-assets/..., relative to this folder whatever CARGO_TARGET_DIR is.
generated=target/linux-assets
rm -rf "$generated"
"$target/$dir/racksmith" generate-assets "$generated" 2>/dev/null

rm -f "$target"/debian/racksmith*_*.deb "$target"/debian/racksmith*_*.ddeb
cargo deb --profile "$profile" --no-build --locked

deb="$(ls "$target"/debian/racksmith_*.deb)"
echo "$deb: $(( $(stat -c %s "$deb") / 1024 )) KiB; racksmith installed: $(dpkg-deb --fsys-tarfile "$deb" |
  tar -xO ./usr/bin/racksmith | wc -c | awk '{ printf "%.1f MiB", $1 / 1048576 }'); built in $(( $(date +%s) - started )) s"
