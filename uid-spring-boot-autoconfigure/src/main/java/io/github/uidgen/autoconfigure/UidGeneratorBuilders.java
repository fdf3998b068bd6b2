package io.github.uidgen.autoconfigure;

import java.time.Duration;

import io.github.uidgen.UidClock;
import io.github.uidgen.autoconfigure.UidWorkerProperties.Assigner;
import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.ClassUtils;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * Applies the {@code uid.*} settings both generators share to a generator builder: the layout, the data-center
 * ID, the high-water mark settings, what to do after a lost lease, the system clock and the worker-ID assigner.
 */
final class UidGeneratorBuilders {

	private UidGeneratorBuilders() {
	}

	static <B extends AbstractUidGenerator.Builder<B>> B configure(B builder, UidProperties properties,
			ObjectProvider<WorkerIdAssigner> workerIdAssigner) {
		UidMarkProperties mark = properties.getMark();
		map("uid.mark.reservation", mark.getReservation(), builder::markReservation);
		map("uid.mark.timeout", mark.getTimeout(), builder::markTimeout);
		map("uid.mark.max-startup-wait", mark.getMaxStartupWait(), builder::maxStartupWait);
		map("uid.worker.max-clock-skew", properties.getWorker().getMaxClockSkew(), builder::maxClockSkew);
		builder.reclaimLostLease(properties.getWorker().isReclaimLostLease());
		// The system clock; a customizer may set another after this.
		builder.clock(UidClock.SYSTEM)
			.layout(UidPropertyMapper.layout(properties, UidClock.SYSTEM.currentTimeMillis()))
			.datacenterId(UidPropertyMapper.datacenterId(properties));
		WorkerIdAssigner assigner = workerIdAssigner.getIfAvailable(() -> {
			throw noAssigner(properties.getWorker());
		});
		return builder.workerIdAssigner(assigner);
	}

	/**
	 * Returns how long the start keeps trying a store that does not answer ({@code uid.worker.store-wait-at-start}).
	 * @throws UidPropertyException when it is negative
	 */
	static Duration storeWaitAtStart(UidProperties properties) {
		Duration wait = properties.getWorker().getStoreWaitAtStart();
		if (wait == null || wait.isNegative()) {
			throw UidPropertyMapper.refused("uid.worker.store-wait-at-start", wait,
					"use 0 to fail the start at the first call the store leaves unanswered, or a positive duration "
							+ "such as 10s",
					null);
		}
		return wait;
	}

	/** Explains why no assigner bean exists for the configured choice. */
	private static UidPropertyException noAssigner(UidWorkerProperties worker) {
		Assigner assigner = worker.getAssigner();
		String property = "uid.worker.assigner";
		if (assigner == Assigner.DB && !isPresent("org.springframework.jdbc.core.JdbcTemplate")) {
			return new UidPropertyException(property, "db",
					"The db worker-ID assigner needs spring-jdbc, which is not on the classpath.",
					"Add spring-boot-starter-jdbc and a JDBC driver, or choose another uid.worker.assigner.");
		}
		if (assigner == Assigner.REDIS
				&& !isPresent("org.springframework.data.redis.connection.RedisConnectionFactory")) {
			return new UidPropertyException(property, "redis",
					"The redis worker-ID assigner needs Spring Data Redis, which is not on the classpath.",
					"Add spring-boot-starter-data-redis, or choose another uid.worker.assigner.");
		}
		if (assigner == Assigner.ZOOKEEPER && !isPresent("org.apache.curator.framework.CuratorFramework")) {
			return new UidPropertyException(property, "zookeeper",
					"The zookeeper worker-ID assigner needs Apache Curator, which is not on the classpath.",
					"Add org.apache.curator:curator-framework, or choose another uid.worker.assigner.");
		}
		if (assigner != null) {
			return new UidPropertyException(property, assigner.name().toLowerCase(),
					"No worker-ID assigner bean was created for uid.worker.assigner.",
					"Check the condition evaluation report (--debug) for why its auto-configuration did not match, "
							+ "or declare a WorkerIdAssigner bean.");
		}
		return new UidPropertyException(property, null,
				"No worker-ID assigner is chosen: uid.worker.assigner is not set, and neither is uid.worker.id. "
						+ "Starting anyway would make every instance issue IDs as the same worker, repeating each "
						+ "other's IDs.",
				"Set uid.worker.assigner to db, redis or zookeeper to have worker IDs handed out through the "
						+ "application's DataSource, Redis or ZooKeeper, or to static together with a uid.worker.id "
						+ "unique to this instance.");
	}

	/** Looks the class up through the context class loader, the one the application's classes come from. */
	private static boolean isPresent(String className) {
		return ClassUtils.isPresent(className, null);
	}

}
