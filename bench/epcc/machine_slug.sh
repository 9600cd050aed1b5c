# shellcheck shell=bash
# The results folder name of this machine, for make bench (compare.sh) and
# the model validation (bench/model/validate.sh); sourced, takes the number
# of CPUs as its argument.
# e.g. "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz" -> intel-xeon-gold-6130-16c;
# "-<n>l3" follows where the CPUs span n L3 caches (n > 1): a virtual
# machine's CPU may name only its vendor and line ("AMD EPYC"), and two such
# machines whose cores share an L3 or not are measured apart.
machine_slug() {
    local cores=$1 model l3
    model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    [[ -n $model ]] || model=$(uname -m)
    l3=$(for d in /sys/devices/system/cpu/cpu[0-9]*/cache/index[0-9]*; do
        if [[ $(cat "$d/level" 2>/dev/null) == 3 ]]; then cat "$d/shared_cpu_list"; fi
    done 2>/dev/null | sort -u | wc -l)
    printf '%s\n' "$model" | tr 'A-Z' 'a-z' | sed -E \
        -e 's/\((r|tm)\)//g; s/@.*//; s/\b(cpu|processor|[0-9]+-core)\b//g' \
        -e 's/[^a-z0-9]+/-/g; s/^-+//; s/-+$//' |
        awk -v n="$cores" -v l3="$l3" \
            '{ print ($0 == "" ? "cpu" : $0) "-" n "c" (l3 > 1 ? "-" l3 "l3" : "") }'
}
