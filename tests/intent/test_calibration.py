"""The calibration maps: probabilities that match observed frequencies."""

from __future__ import annotations

import numpy as np

from intent.calibration import PlattCalibrator, expected_calibration_error, fit_logistic_1d


def _sigmoid(z: float) -> float:
    return 1 / (1 + float(np.exp(-z)))


def test_logistic_fit_keeps_a_high_base_rate() -> None:
    # 95% right whatever x says: the fitted probability must stay near 0.95, not shrink to 0.5
    rng = np.random.default_rng(1)
    x = rng.standard_normal(2000).astype(np.float32)
    y = rng.random(2000) < 0.95
    slope, intercept = fit_logistic_1d(x, y)
    assert abs(_sigmoid(intercept) - float(y.mean())) < 0.02
    assert abs(slope) < 0.2


def test_logistic_fit_recovers_a_slope() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal(5000).astype(np.float32)
    y = rng.random(5000) < 1 / (1 + np.exp(-(2.0 * x - 1.0)))
    slope, intercept = fit_logistic_1d(x, y)
    assert abs(slope - 2.0) < 0.25 and abs(intercept + 1.0) < 0.2


def test_sample_weights_shift_the_prior() -> None:
    x = np.zeros(200, dtype=np.float32)
    y = np.arange(200) < 100
    _, plain = fit_logistic_1d(x, y)
    _, weighted = fit_logistic_1d(x, y, weights=np.where(y, 1.0, 0.25))
    assert abs(_sigmoid(plain) - 0.5) < 0.01
    assert abs(_sigmoid(weighted) - 0.8) < 0.01  # 100 vs 25 effective negatives


def test_negatives_never_outweigh_positives() -> None:
    rng = np.random.default_rng(3)
    pos_sim = rng.normal(0.8, 0.05, 50).astype(np.float32)
    neg_sim = rng.normal(0.8, 0.05, 500).astype(np.float32)  # indistinguishable, 10x as many
    sims = np.concatenate([pos_sim, neg_sim])
    top_prob = np.full(len(sims), 0.9, dtype=np.float32)
    negative = np.arange(len(sims)) >= 50
    correct = ~negative
    platt = PlattCalibrator().fit(top_prob, sims, correct, negative)
    assert platt.inscope is not None
    c, d = platt.inscope
    p_inscope = _sigmoid(c * 0.8 + d)
    assert 0.4 < p_inscope < 0.6  # capped at a 50% prior, not 1 in 11


def test_calibrated_confidence_tracks_accuracy() -> None:
    rng = np.random.default_rng(4)
    true_p = rng.uniform(0.3, 0.99, 4000)
    raw = np.clip(true_p**3, 1e-4, 1 - 1e-4).astype(np.float32)  # over-sharp scores
    right = rng.random(4000) < true_p
    platt = PlattCalibrator().fit(raw, np.ones(4000, dtype=np.float32), right, np.zeros(4000, dtype=bool))
    calibrated = platt(raw, np.ones(4000, dtype=np.float32))
    assert expected_calibration_error(calibrated, right) < expected_calibration_error(raw, right)
    assert expected_calibration_error(calibrated, right) < 0.05
