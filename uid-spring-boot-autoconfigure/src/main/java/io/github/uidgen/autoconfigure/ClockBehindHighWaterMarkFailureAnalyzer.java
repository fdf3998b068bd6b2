package io.github.uidgen.autoconfigure;

import java.time.Duration;

import io.github.uidgen.ClockBehindHighWaterMarkException;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start refused because the clock is behind the worker's high-water mark by more than the start-up
 * wait.
 */
class ClockBehindHighWaterMarkFailureAnalyzer extends UidFailureAnalyzer<ClockBehindHighWaterMarkException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ClockBehindHighWaterMarkException cause) {
		Duration gap = Duration.between(cause.getClock(), cause.getHighWaterMark());
		String description = describe(cause.getMessage(), "uid.mark.max-startup-wait",
				cause.getMaxWait().toMillis() + "ms");
		String action = "Fix the system clock (it is " + gap.toMillis() + " ms behind the mark), or start again after "
				+ cause.getHighWaterMark() + ", or raise uid.mark.max-startup-wait above " + gap.toMillis()
				+ "ms. Do not reuse the worker ID with the clock behind its mark: that can repeat IDs.";
		return new FailureAnalysis(description, action, cause);
	}

}
