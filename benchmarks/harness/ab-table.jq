# The Markdown table of two builds side by side (ab.sh, load/paired.sh): each figure's median per
# build and B's ratio to A per round, its median and its range. $how says how the rounds ran.
"A: \(.a)\nB: \(.b)\n\($how)\n",
"| figure | A (median) | B (median) | B / A (median) | B / A (min-max) |",
"| --- | --- | --- | --- | --- |",
(.figures | to_entries[] | "| \(.key) | \(.value.a_median) | \(.value.b_median) | \(.value.b_over_a) | \(.value.b_over_a_min)-\(.value.b_over_a_max) |")
