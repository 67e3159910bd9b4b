#!/usr/bin/env bash
# count-class-lines.sh DIR [TOP]
# Prints the C# types under DIR by code lines, largest first: "lines  files  name".
# A code line is non-blank and not only a comment (//, ///, or inside /* */). Every partial file of a type is summed;
# types are keyed by simple name (StreamServer and StreamServer<TSession> count as one, as issue 22 counts them).
# A file's lines go to the top-level type declared above them (nested types count in their container; usings and
# the namespace line go to the file's first type). A *.twin.cs template (its "// twin: A.B C.D" line names the classes
# it is generated into) counts in full for each class it names. bin/ and obj/ are skipped.
set -euo pipefail
dir=${1:?usage: count-class-lines.sh DIR [TOP]}
top=${2:-0}
find "$dir" -name '*.cs' -not -path '*/obj/*' -not -path '*/bin/*' -print0 | sort -z |
xargs -0 awk '
function flush_pending(name) { if (pending > 0) { lines[name] += pending; pending = 0 } }
FNR == 1 { current = ""; pre = 0; pending = 0; incomment = 0; twin = ""; split("", seen) }
{
    line = $0
    sub(/\r$/, "", line)
    # Twin template: the header names the target classes.
    if (line ~ /^\/\/ twin:/) { twin = substr(line, 9); next }
    code = line
    # Strip /* */ comments (possibly spanning lines) and // comments, then test for anything left.
    out = ""
    while (length(code) > 0) {
        if (incomment) {
            p = index(code, "*/"); if (p == 0) { code = ""; break }
            code = substr(code, p + 2); incomment = 0
        } else {
            p = index(code, "/*"); q = index(code, "//")
            if (q > 0 && (p == 0 || q < p)) { out = out substr(code, 1, q - 1); code = ""; break }
            if (p == 0) { out = out code; code = ""; break }
            out = out substr(code, 1, p - 1); code = substr(code, p + 2); incomment = 1
        }
    }
    if (out ~ /^[ \t]*$/) next
    if (twin != "") { n = split(twin, targets, " "); for (i = 1; i <= n; i++) { t = targets[i]; sub(/.*\./, "", t); lines[t]++; if (!(t SUBSEP FILENAME in seen)) { seen[t SUBSEP FILENAME] = 1; files[t]++ } } ; next }
    if (out ~ /^\[/) { pending++; next }   # attribute at column 0: belongs to the next declaration
    if (match(out, /^((public|internal|private|protected|file|abstract|sealed|static|partial|readonly|ref|unsafe|new)[ \t]+)*(class|struct|interface|enum|delegate|record([ \t]+(class|struct))?)[ \t]+/)) {
        rest = substr(out, RLENGTH + 1)
        if (out ~ /delegate[ \t]/) { sub(/^[^(]*[ \t]/, "", rest) }   # delegate R Name(...): skip the return type
        match(rest, /^[A-Za-z_][A-Za-z0-9_]*/); name = substr(rest, 1, RLENGTH)
        current = name
        if (!(name SUBSEP FILENAME in seen)) { seen[name SUBSEP FILENAME] = 1; files[name]++ }
        lines[name] += pre + 1; pre = 0; flush_pending(name); next
    }
    if (current == "") pre++; else { flush_pending(current); lines[current]++ }
}
END { for (t in lines) printf "%6d %3d  %s\n", lines[t], files[t], t }
' | sort -k1,1nr -k3 | { if [ "$top" -gt 0 ]; then head -n "$top"; else cat; fi; }
