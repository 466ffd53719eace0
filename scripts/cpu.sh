# Sourced by test-all.sh and check-notebooks.sh.
# cpu_of FILE: the CPU seconds (user + system, whole seconds) in FILE, the output of bash's
# `times` run in a subshell after a command: its second line is the children's "XmY.YYYs XmY.YYYs".
cpu_of() { awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%d", t }' "$1" 2>/dev/null || echo 0; }
