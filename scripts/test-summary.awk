# Reads `swift test` output and prints its closing count as one plain line,
# "tests: N passed, N failed, N skipped", from the last XCTest "Executed …" line.
/Executed [0-9]+ tests?, with / {
    n = $0; sub(/.*Executed /, "", n); sub(/ .*/, "", n)
    f = 0; if (match($0, /[0-9]+ failures?/)) { f = substr($0, RSTART, RLENGTH); sub(/ .*/, "", f) }
    s = 0; if (match($0, /[0-9]+ tests? skipped/)) { s = substr($0, RSTART, RLENGTH); sub(/ .*/, "", s) }
    total = n; failed = f; skipped = s
}
END {
    if (total == "") { print "tests: no XCTest summary found" > "/dev/stderr"; exit 1 }
    printf "tests: %d passed, %d failed, %d skipped\n", total - failed - skipped, failed, skipped
}
