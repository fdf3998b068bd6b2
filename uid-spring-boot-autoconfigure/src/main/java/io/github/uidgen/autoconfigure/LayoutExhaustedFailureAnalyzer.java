package io.github.uidgen.autoconfigure;

import io.github.uidgen.LayoutExhaustedException;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start refused because the layout's time bits have run out (or the worker's high-water mark lies
 * beyond them).
 */
class LayoutExhaustedFailureAnalyzer extends UidFailureAnalyzer<LayoutExhaustedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LayoutExhaustedException cause) {
		String description = describe(cause.getMessage(), "uid.time-bits, uid.epoch, uid.time-unit",
				"expires " + cause.getExpiry());
		String action = "Move to a layout that lasts longer: more uid.time-bits (taken from uid.worker-bits or "
				+ "uid.seq-bits) or a later uid.epoch, checking that its IDs sort above every ID already issued.";
		return new FailureAnalysis(description, action, cause);
	}

}
