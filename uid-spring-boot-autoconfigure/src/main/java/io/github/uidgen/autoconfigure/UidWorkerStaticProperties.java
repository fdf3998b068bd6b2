package io.github.uidgen.autoconfigure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of the static assigner, under {@code uid.worker.static.*}.
 */
public class UidWorkerStaticProperties {

	/**
	 * File that keeps the worker's high-water mark across restarts. Defaults to
	 * uid-state/worker-{id}.state under the working directory.
	 */
	private Path stateFile;

	/**
	 * Where the worker ID comes from instead of uid.worker.id: hostname takes the ordinal a Kubernetes
	 * StatefulSet gives each pod, the number after the last dash of the host name (ids-3 is 3); env takes
	 * it from the environment variable named by ordinal-env. Not set: uid.worker.id.
	 */
	private OrdinalSource ordinalFrom;

	/**
	 * Environment variable that holds the pod's ordinal, for ordinal-from=env; for example POD_INDEX filled
	 * from the pod label apps.kubernetes.io/pod-index.
	 */
	private String ordinalEnv;

	/**
	 * Number added to the ordinal to make the worker ID, so that several StatefulSets can share one worker-ID
	 * space without overlapping.
	 */
	private long ordinalOffset = 0;

	/**
	 * Backup worker IDs the default generator goes on issuing as when the clock steps back further than
	 * uid.clock-backwards-tolerance, each with its own state file next to state-file (.backup-{id}). Like the
	 * worker ID itself, no other instance may use them. Refused at start where they would do nothing: with
	 * another assigner, the cached or segment generator, or clock-backwards-switch-worker off.
	 */
	private List<Long> backupIds = new ArrayList<>();

	public Path getStateFile() {
		return this.stateFile;
	}

	public void setStateFile(Path stateFile) {
		this.stateFile = stateFile;
	}

	public OrdinalSource getOrdinalFrom() {
		return this.ordinalFrom;
	}

	public void setOrdinalFrom(OrdinalSource ordinalFrom) {
		this.ordinalFrom = ordinalFrom;
	}

	public String getOrdinalEnv() {
		return this.ordinalEnv;
	}

	public void setOrdinalEnv(String ordinalEnv) {
		this.ordinalEnv = ordinalEnv;
	}

	public long getOrdinalOffset() {
		return this.ordinalOffset;
	}

	public List<Long> getBackupIds() {
		return this.backupIds;
	}

	public void setBackupIds(List<Long> backupIds) {
		this.backupIds = backupIds;
	}

	public void setOrdinalOffset(long ordinalOffset) {
		this.ordinalOffset = ordinalOffset;
	}

	/**
	 * Where a pod's ordinal is read from.
	 */
	public enum OrdinalSource {

		/** The number after the last dash of the host name, as a StatefulSet names its pods. */
		HOSTNAME,

		/** An environment variable, named by ordinal-env. */
		ENV

	}

}
