#!/usr/bin/env bash
# Unpacks a Debian source package into a folder, for sources Debian builds but does not ship in a
# -dev package (Dear ImGui's .cpp files and backends for the WebAssembly build):
#   tools/debian_source.sh PACKAGE DEST_DIR
# Needs a deb-src entry: when apt has none for this release, one is added that mirrors the
# machine's own `deb` entry for it (same archive, suite and components; nothing else is named
# here), in /etc/apt/sources.list.d/attnlab-deb-src.sources. Runs apt-get as root (sudo if not).
set -euo pipefail
package=$1
dest=$2
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
if [ -n "$(find "$dest" -maxdepth 2 -name debian -type d 2>/dev/null)" ]; then exit 0; fi

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?}")
has_deb_src() {
  grep -rhsE "^\s*(deb-src\s|Types:.*deb-src)" /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    /etc/apt/sources.list.d/*.sources >/dev/null
}
if ! has_deb_src; then
  # The first enabled `deb` entry for this release, in either format, as deb822 with deb-src.
  entry=$(python3 - "$codename" <<'PY'
import glob, re, sys
codename = sys.argv[1]
def one_line(path):
    for line in open(path, encoding="utf-8", errors="replace"):
        parts = line.split("#", 1)[0].split()
        if len(parts) >= 4 and parts[0] == "deb":
            words = [p for p in parts[1:] if not p.startswith("[")]
            opts = [p for p in parts[1:] if p.startswith("[")]
            uri, suite, comps = words[0], words[1], words[2:]
            if suite == codename:
                signed = re.search(r"signed-by=([^\] ]+)", " ".join(opts))
                return uri, comps, signed.group(1) if signed else None
def deb822(path):
    for block in re.split(r"\n\s*\n", open(path, encoding="utf-8", errors="replace").read()):
        fields = {}
        for line in block.splitlines():
            if line.startswith("#") or ":" not in line: continue
            key, value = line.split(":", 1)
            fields[key.strip().lower()] = value.strip()
        if fields.get("enabled", "yes").lower() == "no": continue
        if "deb" in fields.get("types", "").split() and codename in fields.get("suites", "").split():
            return fields["uris"].split()[0], fields.get("components", "main").split(), fields.get("signed-by")
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try: found = one_line(path)
    except OSError: found = None
    if found: break
else:
    found = None
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        found = deb822(path)
        if found: break
if not found: sys.exit("no enabled deb entry for " + codename)
uri, comps, signed = found
print("Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s" % (uri, codename, " ".join(comps)))
if signed: print("Signed-By: %s" % signed)
PY
)
  echo "debian_source.sh: adding a deb-src entry mirroring this machine's apt source for $codename"
  printf '%s\n' "$entry" | "${sudo[@]}" tee /etc/apt/sources.list.d/attnlab-deb-src.sources >/dev/null
  "${sudo[@]}" apt-get update -q >/dev/null
fi
mkdir -p "$dest"
cd "$dest"
apt-get source -q "$package"
