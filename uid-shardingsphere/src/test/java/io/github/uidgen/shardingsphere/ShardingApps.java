package io.github.uidgen.shardingsphere;

import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.shardingsphere.app.ShardingTestApplication;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts the sharded test application on a ShardingSphere URL, with the static worker ID given.
 */
final class ShardingApps {

	private ShardingApps() {
	}

	static ConfigurableApplicationContext start(String url, long workerId, String... more) {
		List<String> args = new ArrayList<>(List.of(
				"--spring.datasource.driver-class-name=org.apache.shardingsphere.driver.ShardingSphereDriver",
				"--spring.datasource.url=" + url, "--spring.application.name=sharded-" + workerId,
				"--uid.worker.id=" + workerId,
				"--uid.worker.static.state-file=target/uid-state/sharded-" + workerId + ".state"));
		args.addAll(List.of(more));
		return new SpringApplicationBuilder(ShardingTestApplication.class).web(WebApplicationType.NONE)
			.run(args.toArray(String[]::new));
	}

}
