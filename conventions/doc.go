// Package conventions answers "why do the numbers differ?": it scores one run under the rules
// of each evaluation tool people compare numbers from, side by side, explains every number that
// differs from ranklab's with a reason computed from the data, and measures how much ties in
// the scores can move each query's value.
package conventions
