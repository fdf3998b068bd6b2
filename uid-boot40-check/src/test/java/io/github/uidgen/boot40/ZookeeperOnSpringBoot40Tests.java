package io.github.uidgen.boot40;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.autoconfigure.ZookeeperWorkerIdAssignerAutoConfiguration;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Version;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The zookeeper assigner in a Spring Boot 4.0 application whose {@code curator-framework} has no version of its own:
 * uid-bom supplies Curator and ZooKeeper, and they lease a worker ID from a real ZooKeeper server.
 */
class ZookeeperOnSpringBoot40Tests {

	@Test
	void curatorFromTheBomLeasesAWorkerId() throws Exception {
		assertThat(Version.getFullVersion()).startsWith("3.9.");
		try (TestingServer zookeeper = new TestingServer(true)) {
			new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(ZookeeperWorkerIdAssignerAutoConfiguration.class,
						UidGeneratorAutoConfiguration.class))
				.withPropertyValues("uid.worker.assigner=zookeeper",
						"uid.worker.zookeeper.connect-string=" + zookeeper.getConnectString())
				.run((context) -> {
					assertThat(context).hasNotFailed();
					UidGenerator generator = context.getBean(UidGenerator.class);
					assertThat(generator.status().worker().assigner()).isEqualTo("zookeeper");
					long id = generator.getUID();
					assertThat(generator.decode(id).workerId()).isEqualTo(generator.status().worker().id());
				});
		}
	}

}
