package io.github.uidgen.autoconfigure.data;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.persistence.jdbc.UidIdBeforeConvertCallback;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UidDataJdbcAutoConfiguration}.
 */
class UidDataJdbcAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class, UidDataJdbcAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(2));

	@Test
	void registersTheCallbackBesideTheGenerator() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(UidGenerator.class)
			.hasSingleBean(UidIdBeforeConvertCallback.class));
	}

	@Test
	void anApplicationsOwnCallbackWins() {
		UidIdBeforeConvertCallback own = new UidIdBeforeConvertCallback(() -> null, () -> null);
		this.contextRunner.withBean(UidIdBeforeConvertCallback.class, () -> own)
			.run((context) -> assertThat(context.getBean(UidIdBeforeConvertCallback.class)).isSameAs(own));
	}

	@Test
	void backsOffWithoutAGenerator() {
		this.contextRunner.withPropertyValues("uid.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(UidIdBeforeConvertCallback.class));
	}

	@Test
	void backsOffWithoutSpringDataRelational() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(BeforeConvertCallback.class))
			.run((context) -> assertThat(context).doesNotHaveBean(UidIdBeforeConvertCallback.class));
	}

	@Test
	void backsOffWithoutUidPersistence() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(UidIdBeforeConvertCallback.class))
			.run((context) -> assertThat(context).doesNotHaveBean(UidIdBeforeConvertCallback.class));
	}

}
