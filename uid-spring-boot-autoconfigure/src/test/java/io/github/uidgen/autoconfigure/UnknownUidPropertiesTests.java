package io.github.uidgen.autoconfigure;

import java.nio.file.Path;

import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code uid.*} property that no part of uid reads is warned about at start, with the closest known name; known
 * properties in any of Spring Boot's spellings are not.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownUidPropertiesTests {

	@TempDir
	Path stateDir;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(3));

	@Test
	void aTypoIsWarnedAboutWithTheClosestKnownProperty(CapturedOutput output) {
		this.contextRunner.withPropertyValues("uid.segment.stpe=100", "uid.cached.boostPower=2")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("uid.segment.stpe")
			.contains("uid.segment.step")
			.doesNotContain("uid.cached.boost-power is not")
			.doesNotContain("boostPower");
	}

	@Test
	void aNameFarFromEveryKnownOneIsWarnedAboutWithoutAGuess(CapturedOutput output) {
		this.contextRunner.withPropertyValues("uid.frobnicate-everything=true")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("uid.frobnicate-everything").doesNotContain("did you mean");
	}

	@Test
	void knownPropertiesOfListsAndEveryGroupAreQuiet(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("uid.worker-bits=10", "uid.worker.static.state-file=" + this.stateDir.resolve("w"),
					"uid.segment.step=100", "uid.jackson.write-longs-as-strings=false", "uid.mark.reservation=3s",
					"uid.worker.static.backup-ids[0]=7", "uid.cached.boost_power=1")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("uid property");
	}

}
