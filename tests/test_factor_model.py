"""The logistic factor model recovers known coefficients and reports honest intervals."""

import numpy as np

from orchestration.assets.factor_model import fit_logistic


def test_recovers_known_coefficients():
    rng = np.random.default_rng(7)
    n = 20_000
    x = rng.integers(0, 2, size=(n, 2)).astype(float)
    true = np.array([-2.0, 1.5, -0.5])
    p = 1 / (1 + np.exp(-(true[0] + x @ true[1:])))
    y = (rng.random(n) < p).astype(float)
    coefs = fit_logistic(x, y, ["a", "b"])
    for c, t in zip(coefs, true):
        assert c.ci_low <= t <= c.ci_high, (c, t)
        assert abs(c.estimate - t) < 0.15
    assert coefs[1].odds_ratio > 1 > coefs[2].odds_ratio


def test_separated_data_stays_finite():
    x = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array([0.0, 0.0, 1.0, 1.0])
    coefs = fit_logistic(x, y, ["perfect"])
    assert all(np.isfinite(c.estimate) and np.isfinite(c.std_error) for c in coefs)
    assert coefs[1].estimate > 0
