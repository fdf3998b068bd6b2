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
		return UidPropertyMapper.apply("uid.worker.static.backup-ids", properties.getWorker().getStatic().getBackupIds(),
				(backupIds) -> new StaticWorkerIdAssigner(workerId, file, backupIds));
	}

}
