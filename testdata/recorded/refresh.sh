#!/bin/sh
# refresh.sh [-check] SRC DST: make DST (testdata/recorded) hold the recorded cases of SRC
# (../shared/fixtures) and say what changed: each case added, removed or changed, with the
# files that changed, and which lines of DST/RULES a new or removed case needs. The files of
# DST that are the repository's own (README.md, RULES, refresh.sh) are kept. With -check
# nothing is copied: the differences are printed and the exit status is 1 when there are
# any. Exit status 1 also when SRC has no cases.
set -eu
check=
if [ "${1:-}" = -check ]; then
	check=1
	shift
fi
src=${1:?usage: refresh.sh [-check] SRC DST}
dst=${2:?usage: refresh.sh [-check] SRC DST}
if ! ls "$src"/*/case.yaml >/dev/null 2>&1; then
	echo "no recorded cases in $src" >&2
	exit 1
fi
mkdir -p "$dst"
added=0 removed=0 changed=0 same=0
for c in "$src"/*/; do
	name=$(basename "$c")
	[ -f "$c/case.yaml" ] || continue
	if [ ! -d "$dst/$name" ]; then
		echo "added    $name"
		added=$((added + 1))
	elif diff -rq "$c" "$dst/$name" >/dev/null 2>&1; then
		same=$((same + 1))
		continue
	else
		files=$(diff -rq "$c" "$dst/$name" 2>/dev/null | sed -e "s|^Files $c/*\([^ ]*\) and .*|\1|" -e "s|^Only in $dst/$name/*: \(.*\)|-\1|" -e "s|^Only in $c/*: \(.*\)|+\1|" -e "s|^Only in ${c%/}: \(.*\)|+\1|" -e "s|^Only in $dst/$name: \(.*\)|-\1|" | tr '\n' ' ')
		echo "changed  $name: $files"
		changed=$((changed + 1))
		[ -n "$check" ] || rm -rf "${dst:?}/$name"
	fi
	[ -n "$check" ] && continue
	mkdir -p "$dst/$name"
	cp -p "$c"* "$dst/$name/"
done
for d in "$dst"/*/; do
	[ -d "$d" ] || continue
	name=$(basename "$d")
	if [ ! -f "$src/$name/case.yaml" ]; then
		echo "removed  $name"
		removed=$((removed + 1))
		[ -n "$check" ] || rm -rf "${dst:?}/$name"
	fi
done
if [ -f "$src/README.md" ] && ! cmp -s "$src/README.md" "$dst/FORMAT.md"; then
	echo "changed  FORMAT.md (the recordings' README)"
	changed=$((changed + 1))
	[ -n "$check" ] || cp "$src/README.md" "$dst/FORMAT.md"
fi
echo "$added added, $removed removed, $changed changed, $same unchanged"
# RULES names the rules of docs/rules.md each case shows: say which lines it lacks or has too many.
if [ -f "$dst/RULES" ]; then
	for d in "$dst"/*/; do
		name=$(basename "$d")
		grep -q "^$name: " "$dst/RULES" || echo "RULES has no line for $name: add one (docs/rules.md ids)"
	done
	grep -v '^#' "$dst/RULES" | sed -n 's/^\([^:]*\): .*/\1/p' | while read -r name; do
		[ -d "$dst/$name" ] || echo "RULES names $name, which is not among the recorded cases: remove its line"
	done
fi
if [ -n "$check" ] && [ $((added + removed + changed)) -gt 0 ]; then
	echo "testdata/recorded differs from $src: make refresh-recorded copies it" >&2
	exit 1
fi
