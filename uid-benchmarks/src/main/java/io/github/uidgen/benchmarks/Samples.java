package io.github.uidgen.benchmarks;

import java.util.Arrays;
import java.util.Collection;

/**
 * Repeated measurements of one figure: median, range and spread, so a table can say how noisy each figure was.
 */
final class Samples {

	private final double[] values;

	Samples(Collection<Double> values) {
		this.values = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		if (this.values.length == 0) {
			throw new IllegalArgumentException("No samples");
		}
	}

	Samples(double... values) {
		this.values = values.clone();
		Arrays.sort(this.values);
		if (this.values.length == 0) {
			throw new IllegalArgumentException("No samples");
		}
	}

	int count() {
		return this.values.length;
	}

	double median() {
		int n = this.values.length;
		return (n % 2 == 1) ? this.values[n / 2] : (this.values[n / 2 - 1] + this.values[n / 2]) / 2;
	}

	double min() {
		return this.values[0];
	}

	double max() {
		return this.values[this.values.length - 1];
	}

	/**
	 * Returns the range as a percentage of the median: how far apart the best and worst repetition were.
	 * @return a percentage
	 */
	double spreadPercent() {
		double median = median();
		return (median == 0) ? 0 : 100 * (max() - min()) / median;
	}

}
