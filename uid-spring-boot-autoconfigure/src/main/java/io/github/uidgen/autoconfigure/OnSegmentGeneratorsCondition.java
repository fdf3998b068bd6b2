package io.github.uidgen.autoconfigure;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * Matches when segment numbers are offered: {@code uid.generator=segment}, or {@code uid.segment.enabled=true} beside
 * a Snowflake generator, as a Leaf server offers both modes.
 */
class OnSegmentGeneratorsCondition extends AnyNestedCondition {

	OnSegmentGeneratorsCondition() {
		super(ConfigurationPhase.PARSE_CONFIGURATION);
	}

	@ConditionalOnProperty(name = "uid.generator", havingValue = "segment")
	static class SegmentGenerator {

	}

	@ConditionalOnBooleanProperty(name = "uid.segment.enabled")
	static class SegmentsBesideSnowflake {

	}

}
