package io.github.uidgen.autoconfigure;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.github.uidgen.autoconfigure.UidProperties.Generator;
import io.github.uidgen.autoconfigure.UidWorkerProperties.Assigner;
import io.github.uidgen.autoconfigure.UidWorkerStaticProperties.OrdinalSource;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * Refuses {@code uid.worker.static.backup-ids} where they would do nothing: only the default generator, on the
 * static assigner, with {@code uid.clock-backwards-switch-worker} on, ever moves to them. Someone who set them counts
 * on riding through a clock that steps back; starting without them would leave that unguarded without a word.
 */
final class BackupWorkerIdsCheck {

	static final String BACKUP_IDS = "uid.worker.static.backup-ids";

	private BackupWorkerIdsCheck() {
	}

	/**
	 * Checks the backup worker IDs against the settings that decide whether they are used.
	 * @param binder the binder of the application's environment
	 * @throws UidPropertyException naming {@code uid.worker.static.backup-ids} when they would do nothing
	 */
	static void check(Binder binder) {
		List<Long> backupIds = binder.bind(BACKUP_IDS, Bindable.listOf(Long.class)).orElse(List.of());
		if (backupIds.isEmpty()) {
			return;
		}
		String value = backupIds.stream().map(String::valueOf).collect(Collectors.joining(","));
		Assigner assigner = binder.bind("uid.worker.assigner", Assigner.class).orElse(null);
		if (assigner != null && assigner != Assigner.STATIC) {
			String name = assigner.name().toLowerCase(Locale.ROOT);
			throw new UidPropertyException(BACKUP_IDS, value, BACKUP_IDS + " are worker IDs for the static assigner "
					+ "to move to when the clock steps back, but uid.worker.assigner is " + name + ": the " + name
					+ " worker-ID assigner moves to a free worker ID from its store by itself, so the backup IDs "
					+ "would do nothing.",
					"Remove " + BACKUP_IDS + " (the " + name + " assigner needs none), or set "
							+ "uid.worker.assigner=static to use them.");
		}
		Generator generator = binder.bind("uid.generator", Generator.class).orElse(Generator.DEFAULT);
		if (generator != Generator.DEFAULT) {
			String name = generator.name().toLowerCase(Locale.ROOT);
			String why = (generator == Generator.SEGMENT) ? "its numbers carry no worker ID"
					: "it carries on from its own count when the clock steps back, on the same worker ID";
			throw new UidPropertyException(BACKUP_IDS, value, "Only the default generator moves to a backup worker "
					+ "ID when the clock steps back, but uid.generator is " + name + " (" + why + "), so "
					+ BACKUP_IDS + " would do nothing.",
					"Remove " + BACKUP_IDS + ", or set uid.generator=default to have the generator move to them.");
		}
		boolean switchWorker = binder.bind("uid.clock-backwards-switch-worker", Boolean.class).orElse(true);
		if (!switchWorker && isStatic(binder, assigner)) {
			throw new UidPropertyException(BACKUP_IDS, value, "The default generator moves to a backup worker ID "
					+ "only when it may switch workers, but uid.clock-backwards-switch-worker is false, so "
					+ BACKUP_IDS + " would do nothing.",
					"Remove " + BACKUP_IDS + ", or set uid.clock-backwards-switch-worker=true to have the generator "
							+ "move to them when the clock steps back.");
		}
	}

	/** The static assigner is chosen by name, or by a worker ID or an ordinal source without an assigner named. */
	private static boolean isStatic(Binder binder, Assigner assigner) {
		return assigner == Assigner.STATIC || binder.bind("uid.worker.id", Long.class).isBound()
				|| binder.bind("uid.worker.static.ordinal-from", OrdinalSource.class).isBound();
	}

}
