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

/**
 * Auto-configures the static worker-ID assigner: the worker ID from {@code uid.worker.id}, its high-water mark in
 * a local state file. Chosen by {@code uid.worker.assigner=static}, or when only {@code uid.worker.id} is set.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@Conditional(OnStaticAssignerCondition.class)
@EnableConfigurationProperties(UidProperties.class)
public final class StaticWorkerIdAssignerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(WorkerIdAssigner.class)
	StaticWorkerIdAssigner staticWorkerIdAssigner(UidProperties properties) {
		UidProperties.Worker worker = properties.getWorker();
		Long workerId = worker.getId();
		if (workerId == null) {
			throw new UidPropertyException("uid.worker.id", null,
					"The static worker-ID assigner is chosen but uid.worker.id is not set.",
					"Set uid.worker.id to a worker ID unique to this instance, from 0 to 2^uid.worker-bits - 1, or "
							+ "set uid.worker.assigner to db or redis to have worker IDs handed out.");
		}
		if (workerId < 0) {
			throw new UidPropertyException("uid.worker.id", workerId, "A worker ID cannot be negative.",
					"Set uid.worker.id to a worker ID from 0 to 2^uid.worker-bits - 1.");
		}
		Path stateFile = worker.getStatic().getStateFile();
		if (stateFile == null) {
			stateFile = Path.of("uid-state", "worker-" + workerId + ".state");
		}
		return new StaticWorkerIdAssigner(workerId, stateFile);
	}

}
