package io.github.uidgen.autoconfigure;

import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * What the tests of the auto-configured Snowflake generator share: a context of {@link UidGeneratorAutoConfiguration}
 * whose worker ID, 7, is given by an application's own {@link WorkerIdAssigner} bean (the assigners have their own
 * tests).
 */
abstract class AbstractUidGeneratorAutoConfigurationTests {

	final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(7));

}
