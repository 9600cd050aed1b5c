# median.awk: the helper the aggregation scripts share; load it first,
# e.g. awk -f median.awk -f aggregate.awk ...

# Sorts a[1..n] in place (insertion sort; n, the rounds, is small) and
# returns the median.
function sorted_median(a, n,    i, j, v) {
    for (i = 2; i <= n; i++) {
        v = a[i]
        for (j = i - 1; j >= 1 && a[j] > v; j--)
            a[j + 1] = a[j]
        a[j + 1] = v
    }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
