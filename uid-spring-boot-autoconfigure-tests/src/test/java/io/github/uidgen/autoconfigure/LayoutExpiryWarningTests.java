package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LayoutExpiryWarning}.
 */
@ExtendWith(OutputCaptureExtension.class)
class LayoutExpiryWarningTests {

	private static final UidLayout LAYOUT = UidLayout.defaults();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(3));

	@Test
	void lessThanTwoYearsLeftNamesTheLayoutTheDateAndWhatToDo() {
		long now = LAYOUT.getExpiry().minus(Duration.ofDays(400)).toEpochMilli();
		assertThat(LayoutExpiryWarning.warning(LAYOUT, now)).contains(LAYOUT.toString())
			.contains("runs out on " + LAYOUT.getExpiry().atOffset(ZoneOffset.UTC).toLocalDate())
			.contains("in 400 days")
			.contains("uid.time-bits")
			.contains("docs/operations.md#layout-running-out");
	}

	@Test
	void twoYearsOrMoreLeftIsQuiet() {
		long now = LAYOUT.getExpiry().minus(LayoutExpiryWarning.WARN_BELOW).toEpochMilli();
		assertThat(LayoutExpiryWarning.warning(LAYOUT, now)).isNull();
		assertThat(LayoutExpiryWarning.warning(null, now)).as("segment IDs have no layout").isNull();
	}

	@Test
	void aStartOnALayoutWithLessThanTwoYearsLeftWarnsOnce(CapturedOutput output) {
		// 2^35 ms are 397 days: counted from 100 days ago, the layout has less than a year left.
		LocalDate epoch = LocalDate.now(ZoneOffset.UTC).minusDays(100);
		this.contextRunner
			.withPropertyValues("uid.generator=default", "uid.epoch=" + epoch, "uid.time-bits=35",
					"uid.seq-bits=18")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).containsOnlyOnce("The uid ID layout (");
		assertThat(output.toString()).contains("time 35 bits").contains("runs out on");
	}

	@Test
	void aStartOnTheDefaultLayoutIsQuiet(CapturedOutput output) {
		this.contextRunner.withPropertyValues("uid.generator=cached")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("The uid ID layout (");
	}

	@Test
	void aSecondsLayoutNearItsEndWarnsToo() {
		UidLayout seconds = new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2025, 1, 1), 31, 20, 12);
		long now = seconds.getExpiry().minus(Duration.ofDays(30)).toEpochMilli();
		assertThat(LayoutExpiryWarning.warning(seconds, now)).contains("in 30 days");
	}

}
