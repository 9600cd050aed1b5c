# size_label.awk: a byte count as the reports print it (8 B, 4 KiB, 1 MiB);
# load it before the script that uses it, e.g.
#   awk -f size_label.awk -f plot.awk ...

function size_label(b) {
    if (b >= 1048576 && b % 1048576 == 0) return (b / 1048576) " MiB"
    if (b >= 1024 && b % 1024 == 0) return (b / 1024) " KiB"
    return b " B"
}
