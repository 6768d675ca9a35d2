"""Peer: Hairer's Fortran RADAU5 (radau_decsol.f, built by
scripts/setup/radau5-fortran.sh into target/peers/radau5/libradau5.so) on the IVP
Test Set's `andrews` problem, run as the Test Set runs it: the index-3 formulation
in 27 variables (q, v = q', w = q'', lambda), M y' = F(y) with the banded (diagonal)
mass matrix M = diag(I_14, 0_13) (IMAS=1, MLMAS=MUMAS=0), NIND1=14, NIND2=0,
NIND3=13, the Jacobian by RADAU5's own forward differences (IJAC=0, full: MLJAC=N;
the Test Set's andrews supplies no analytic Jacobian), default parameters
(WORK/IWORK zero: NIT=7, THET=0.001, SAFE=0.9, QUOT1/QUOT2=1/1.2, FACL/FACR=5/0.125,
UROUND=1e-16), rtol = atol = h0 = 10^-k for k = 4..10, t = 0 .. 0.03.

Prints JSON: the compiler, and per tolerance the counters of IWORK(14..20)
(f-evaluations without those of the difference Jacobian, Jacobians, steps,
accepted, rejected, LU decompositions, solves), IDID and the scd at t = 0.03 (null
when the run ended with y = NaN, which RADAU5 may report with IDID = 1)
against the Test Set's reference: -log10 of the largest relative error of the
seven angles q (the Test Set measures andrews on q only).

    python3 xtask/peers/radau5_fortran_peer.py [--lib PATH] [--tols 4,5,...]

The problem functions are the same formulas as
crates/integrators/tests/stiff_problems/andrews.rs (Hairer & Wanner, Solving ODEs
II, sec VII.7).
"""

import argparse
import ctypes as C
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = os.path.join(ROOT, "target", "peers", "radau5", "libradau5.so")

M = [0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498]
I = [2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5]
XA, YA, XB, YB, XC, YC = -0.06934, -0.00227, -0.03635, 0.03273, 0.014, 0.072
C0, L0, MOM = 4530.0, 0.07785, 0.033
D, DA, E, EA, RR, RA = 0.028, 0.0115, 0.02, 0.01421, 0.007, 0.00092
SS, SA, SB, SC, SD = 0.035, 0.01874, 0.01043, 0.018, 0.02
TA, TB, U, UA, UB = 0.02308, 0.00916, 0.04, 0.01228, 0.00449
ZF, ZT, FA = 0.02, 0.04, 0.01421

Y0 = [
    -0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
    0.222668390165885884674473185609, 0.487364979543842550225598953530,
    -0.222668390165885884674473185609, 1.23054744454982119249735015568,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    14222.4439199541138705911625887, -10666.8329399655854029433719415,
    0.0, 0.0, 0.0, 0.0, 0.0,
    98.5668703962410896057654982170, -6.12268834425566265503114393122,
    0.0, 0.0, 0.0, 0.0,
]
REFERENCE_Q = [
    0.1581077119629904e02, -0.1575637105984298e02, 0.4082224013073101e-01,
    -0.5347301163226948e00, 0.5244099658805304e00, 0.5347301163226948e00,
    0.1048080741042263e01,
]
N = 27


def andrews(y, f):
    """F(y) of M y' = F(y): q' = v, v' = w, 0 = M(q) w - f(q, v) + G(q)^T lambda,
    0 = g(q)."""
    q, v, w, lam = y[0:7], y[7:14], y[14:21], y[21:27]
    for i in range(14):
        f[i] = y[i + 7]
    th, ph, om = math.cos(q[1]), math.sin(q[3]), math.sin(q[5])
    e4, f6 = E - EA, ZF - FA
    m = [[0.0] * 7 for _ in range(7)]
    m[0][0] = M[0] * RA * RA + M[1] * (RR * RR - 2.0 * DA * RR * th + DA * DA) + I[0] + I[1]
    m[1][0] = M[1] * (DA * DA - DA * RR * th) + I[1]
    m[1][1] = M[1] * DA * DA + I[1]
    m[2][2] = M[2] * (SA * SA + SB * SB) + I[2]
    m[3][3] = M[3] * e4 * e4 + I[3]
    m[4][3] = M[3] * (e4 * e4 + ZT * e4 * ph) + I[3]
    m[4][4] = (M[3] * (ZT * ZT + 2.0 * ZT * e4 * ph + e4 * e4)
               + M[4] * (TA * TA + TB * TB) + I[3] + I[4])
    m[5][5] = M[5] * f6 * f6 + I[5]
    m[6][5] = M[5] * (f6 * f6 - U * f6 * om) + I[5]
    m[6][6] = (M[5] * (f6 * f6 - 2.0 * U * f6 * om + U * U)
               + M[6] * (UA * UA + UB * UB) + I[5] + I[6])
    for i, j in ((0, 1), (3, 4), (5, 6)):
        m[i][j] = m[j][i]
    s3, c3 = math.sin(q[2]), math.cos(q[2])
    xd = SD * c3 + SC * s3 + XB
    yd = SD * s3 - SC * c3 + YB
    ll = math.sqrt((xd - XC) ** 2 + (yd - YC) ** 2)
    fs = -C0 * (ll - L0) / ll
    fx, fy = fs * (xd - XC), fs * (yd - YC)
    ff = [
        MOM - M[1] * DA * RR * v[1] * (v[1] + 2.0 * v[0]) * math.sin(q[1]),
        M[1] * DA * RR * v[0] * v[0] * math.sin(q[1]),
        fx * (SC * c3 - SD * s3) + fy * (SD * c3 + SC * s3),
        M[3] * ZT * e4 * v[4] * v[4] * math.cos(q[3]),
        -M[3] * ZT * e4 * v[3] * (v[3] + 2.0 * v[4]) * math.cos(q[3]),
        -M[5] * U * f6 * v[6] * v[6] * math.cos(q[5]),
        M[5] * U * f6 * v[5] * (v[5] + 2.0 * v[6]) * math.cos(q[5]),
    ]
    s1, c1 = math.sin(q[0]), math.cos(q[0])
    s12, c12 = math.sin(q[0] + q[1]), math.cos(q[0] + q[1])
    s45, c45 = math.sin(q[3] + q[4]), math.cos(q[3] + q[4])
    s5, c5 = math.sin(q[4]), math.cos(q[4])
    s67, c67 = math.sin(q[5] + q[6]), math.cos(q[5] + q[6])
    s7, c7 = math.sin(q[6]), math.cos(q[6])
    g = [[0.0] * 7 for _ in range(6)]
    for r in (0, 2, 4):
        g[r][0] = -RR * s1 + D * s12
        g[r][1] = D * s12
        g[r + 1][0] = RR * c1 - D * c12
        g[r + 1][1] = -D * c12
    g[0][2] = -SS * c3
    g[1][2] = -SS * s3
    g[2][3] = -E * c45
    g[2][4] = -E * c45 + ZT * s5
    g[3][3] = -E * s45
    g[3][4] = -E * s45 - ZT * c5
    g[4][5] = ZF * s67
    g[4][6] = ZF * s67 - U * c7
    g[5][5] = -ZF * c67
    g[5][6] = -ZF * c67 - U * s7
    for i in range(7):
        mw = sum(m[i][j] * w[j] for j in range(7))
        gl = sum(g[k][i] * lam[k] for k in range(6))
        f[14 + i] = mw - ff[i] + gl
    ex, ey = RR * c1 - D * c12, RR * s1 - D * s12
    f[21] = ex - SS * s3 - XB
    f[22] = ey + SS * c3 - YB
    f[23] = ex - E * s45 - ZT * c5 - XA
    f[24] = ey + E * c45 - ZT * s5 - YA
    f[25] = ex - ZF * c67 - U * s7 - XA
    f[26] = ey - ZF * s67 + U * c7 - YA


DP = C.POINTER(C.c_double)
IP = C.POINTER(C.c_int)
FCN = C.CFUNCTYPE(None, IP, DP, DP, DP, DP, IP)
JAC = C.CFUNCTYPE(None, IP, DP, DP, DP, IP, DP, IP)
MAS = C.CFUNCTYPE(None, IP, DP, IP, DP, IP)
SOLOUT = C.CFUNCTYPE(None, IP, DP, DP, DP, DP, IP, IP, DP, IP, IP)


@FCN
def fcn(n, x, y, f, rpar, ipar):
    andrews(y, f)


@JAC
def jac(n, x, y, dfy, ldfy, rpar, ipar):  # never called (IJAC=0)
    pass


@MAS
def mas(n, am, lmas, rpar, ipar):
    # banded storage with MLMAS = MUMAS = 0: AM(1, j) = M(j, j)
    for j in range(N):
        am[j] = 1.0 if j < 14 else 0.0


@SOLOUT
def solout(nr, xold, x, y, cont, lrc, n, rpar, ipar, irtrn):  # never called (IOUT=0)
    pass


def run(lib, tol, h0=None):
    x = C.c_double(0.0)
    xend = C.c_double(0.03)
    h = C.c_double(tol if h0 is None else h0)
    y = (C.c_double * N)(*Y0)
    rtol, atol = C.c_double(tol), C.c_double(tol)
    ljac, lmas, le = N, 1, N
    lwork = N * (ljac + lmas + 3 * le + 12) + 20
    liwork = 3 * N + 20
    work = (C.c_double * lwork)()
    iwork = (C.c_int * liwork)()
    iwork[4], iwork[5], iwork[6] = 14, 0, 13  # IWORK(5..7)
    rpar = (C.c_double * 1)()
    ipar = (C.c_int * 1)()
    idid = C.c_int(0)
    i = C.c_int
    lib.radau5_(
        C.byref(i(N)), fcn, C.byref(x), y, C.byref(xend), C.byref(h),
        C.byref(rtol), C.byref(atol), C.byref(i(0)),
        jac, C.byref(i(0)), C.byref(i(N)), C.byref(i(N)),
        mas, C.byref(i(1)), C.byref(i(0)), C.byref(i(0)),
        solout, C.byref(i(0)),
        work, C.byref(i(lwork)), iwork, C.byref(i(liwork)), rpar, ipar, C.byref(idid),
    )
    worst = max(abs((y[k] - r) / r) for k, r in enumerate(REFERENCE_Q))
    finite = math.isfinite(worst)
    return {
        "tol": tol,
        "h0": tol if h0 is None else h0,
        "idid": idid.value,
        "t": x.value,
        "f_evals": iwork[13],
        "jacobians": iwork[14],
        "steps": iwork[15],
        "accepted": iwork[16],
        "rejected": iwork[17],
        "lu_decompositions": iwork[18],
        "solves": iwork[19],
        # null when the run ended with y = NaN (RADAU5 may report IDID = 1 then)
        "scd": (-math.log10(worst) if worst > 0 else 16.0) if finite else None,
        "q": [y[k] if math.isfinite(y[k]) else None for k in range(7)],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", default=LIB)
    ap.add_argument("--tols", default="4,5,6,7,8,9,10", help="exponents k of 10^-k")
    ap.add_argument("--h0", type=float, default=None,
                    help="initial step (default: h0 = rtol, the Test Set's convention)")
    args = ap.parse_args()
    if not os.path.exists(args.lib):
        sys.exit(f"{args.lib} missing: run scripts/setup/radau5-fortran.sh")
    lib = C.CDLL(args.lib)
    lib.radau5_.restype = None
    compiler_txt = os.path.join(os.path.dirname(args.lib), "compiler.txt")
    compiler = open(compiler_txt).read().strip() if os.path.exists(compiler_txt) else "?"
    # RADAU5 writes its messages to Fortran unit 6 (fd 1): send them to stderr
    # and keep stdout for the JSON
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    runs = [run(lib, 10.0 ** -int(k), args.h0) for k in args.tols.split(",")]
    json.dump({
        "code": "radau_decsol.f of Assimulo-3.0 (Hairer's RADAU5 with DECSOL)",
        "compiler": compiler,
        "problem": "IVP Test Set andrews, 27 variables, index 3, t = 0 .. 0.03",
        "runs": runs,
    }, out, indent=1, allow_nan=False)
    print(file=out)
    out.flush()


if __name__ == "__main__":
    main()
