package io.github.uidgen.autoconfigure;

import java.nio.file.Path;

import io.github.uidgen.worker.StaticWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Auto-configures the static worker-ID assigner: the worker ID from {@code uid.worker.id} or from a StatefulSet
 * pod's ordinal ({@code uid.worker.static.ordinal-from}), its high-water mark in a local state file. Chosen by
 * {@code uid.worker.assigner=static}, or when only {@code uid.worker.id} or the ordinal source is set.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@Conditional(OnStaticAssignerCondition.class)
@EnableConfigurationProperties(UidProperties.class)
public final class StaticWorkerIdAssignerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(WorkerIdAssigner.class)
	StaticWorkerIdAssigner staticWorkerIdAssigner(UidProperties properties, Environment environment) {
		long workerId = new StaticWorkerIdResolver(properties, environment).workerId();
		Path stateFile = properties.getWorker().getStatic().getStateFile();
		if (stateFile == null) {
			stateFile = Path.of("uid-state", "worker-" + workerId + ".state");
		}
		Path file = stateFile;
		refuseBackupIdsOfAnOrdinal(properties.getWorker().getStatic());
		return UidPropertyMapper.apply("uid.worker.static.backup-ids", properties.getWorker().getStatic().getBackupIds(),
				(backupIds) -> new StaticWorkerIdAssigner(workerId, file, backupIds));
	}

	/**
	 * Every pod of a StatefulSet is given the same properties, so backup worker IDs next to an ordinal would be the
	 * same on every pod, each locked only in its own volume: two pods whose clocks step back would issue as one.
	 */
	private static void refuseBackupIdsOfAnOrdinal(UidWorkerStaticProperties settings) {
		if (settings.getOrdinalFrom() != null && !settings.getBackupIds().isEmpty()) {
			throw new UidPropertyException("uid.worker.static.backup-ids", settings.getBackupIds(),
					"Backup worker IDs would be the same on every pod that takes its worker ID from its ordinal "
							+ "(uid.worker.static.ordinal-from), so two pods whose clocks step back would issue IDs "
							+ "as the same worker.",
					"Remove uid.worker.static.backup-ids, or use a lease assigner (uid.worker.assigner=db, redis or "
							+ "zookeeper), which moves to a free worker ID from its store when the clock steps back.");
		}
	}

}
