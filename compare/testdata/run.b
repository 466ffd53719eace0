q1 Q0 d1 1 3 b
q1 Q0 d3 2 2 b
q1 Q0 d2 3 1 b
q2 Q0 d4 1 2 b
q2 Q0 d1 2 1 b
q4 Q0 d6 1 1 b
q9 Q0 d1 1 1 b
