package io.github.uidgen.autoconfigure;

import java.time.LocalDate;

import io.github.uidgen.InvalidLayoutException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link InvalidLayoutFailureAnalyzer}.
 */
class InvalidLayoutFailureAnalyzerTests {

	private final InvalidLayoutFailureAnalyzer analyzer = new InvalidLayoutFailureAnalyzer();

	@Test
	void bitsThatDoNotFitNameAllThreeBitProperties() {
		FailureAnalysis analysis = analyze(() -> new UidLayout(UidTimeUnit.MILLISECONDS, UidLayout.DEFAULT_EPOCH, 42,
				10, 12));
		assertThat(analysis.getDescription()).contains("Property: uid.time-bits, uid.worker-bits, uid.seq-bits")
			.contains("Value: 42 + 10 + 12 = 64")
			.contains("63 bits");
		assertThat(analysis.getAction()).startsWith("Change uid.time-bits, uid.worker-bits, uid.seq-bits:")
			.contains("63 or less");
	}

	@Test
	void fieldWithoutBitsNamesItsProperty() {
		FailureAnalysis analysis = analyze(() -> new UidLayout(UidTimeUnit.MILLISECONDS, UidLayout.DEFAULT_EPOCH, 41,
				0, 12));
		assertThat(analysis.getDescription()).contains("Property: uid.worker-bits").contains("Value: 0");
		assertThat(analysis.getAction()).startsWith("Change uid.worker-bits:");
	}

	@Test
	void epochInTheFutureNamesTheEpoch() {
		FailureAnalysis analysis = analyze(() -> new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2999, 1, 1), 41,
				10, 12));
		assertThat(analysis.getDescription()).contains("future").contains("Property: uid.epoch")
			.contains("Value: 2999-01-01");
		assertThat(analysis.getAction()).startsWith("Change uid.epoch:");
	}

	@Test
	void expiredLayoutNamesTimeBitsAndEpoch() {
		// Baidu's default layout: 28 bits of seconds from 2016-05-20 ran out on 2024-11-20.
		FailureAnalysis analysis = analyze(() -> new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2016, 5, 20), 28, 22,
				13));
		assertThat(analysis.getDescription()).contains("ran out on 2024-11-2")
			.contains("Property: uid.time-bits, uid.epoch")
			.contains("Value: 28 time bits of seconds from 2016-05-20");
		assertThat(analysis.getAction()).contains("more time bits or a later epoch");
	}

	@Test
	void findsTheCauseInsideABeanCreationFailure() {
		InvalidLayoutException cause = catchThrowableOfType(InvalidLayoutException.class,
				() -> new UidLayout(UidTimeUnit.SECONDS, UidLayout.DEFAULT_EPOCH, 41, 10, -1));
		FailureAnalysis analysis = this.analyzer.analyze(new BeanCreationException("uidGenerator", "failed", cause));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains("Property: uid.seq-bits");
		assertThat(analysis.getCause()).isSameAs(cause);
	}

	private FailureAnalysis analyze(Runnable layout) {
		InvalidLayoutException cause = catchThrowableOfType(InvalidLayoutException.class, layout::run);
		assertThat(cause).isNotNull();
		return this.analyzer.analyze(cause);
	}

}
