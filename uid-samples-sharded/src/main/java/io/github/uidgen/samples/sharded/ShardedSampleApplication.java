package io.github.uidgen.samples.sharded;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Starts the sharded order service; the sharding lives in {@code sharding.yaml}, ShardingSphere's own
 * configuration.
 */
@SpringBootApplication
public class ShardedSampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(ShardedSampleApplication.class, args);
	}

}
