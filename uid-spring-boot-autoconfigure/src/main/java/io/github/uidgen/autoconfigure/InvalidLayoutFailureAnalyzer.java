package io.github.uidgen.autoconfigure;

import java.util.stream.Collectors;

import io.github.uidgen.InvalidLayoutException;
import io.github.uidgen.LayoutField;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link InvalidLayoutException} (bits that do not fit, an epoch in the future, a layout already run
 * out) in terms of the {@code uid.*} layout properties.
 */
class InvalidLayoutFailureAnalyzer extends UidFailureAnalyzer<InvalidLayoutException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLayoutException cause) {
		String properties = cause.getFields()
			.stream()
			.map(InvalidLayoutFailureAnalyzer::property)
			.collect(Collectors.joining(", "));
		String description = describe("The uid ID layout is refused: " + cause.getMessage(), properties,
				cause.getValue());
		String action = "Change " + properties + ": " + cause.getFix() + ".";
		return new FailureAnalysis(description, action, cause);
	}

	static String property(LayoutField field) {
		return switch (field) {
			case TIME_UNIT -> "uid.time-unit";
			case EPOCH -> "uid.epoch";
			case TIME_BITS -> "uid.time-bits";
			case WORKER_BITS -> "uid.worker-bits";
			case SEQ_BITS -> "uid.seq-bits";
		};
	}

}
