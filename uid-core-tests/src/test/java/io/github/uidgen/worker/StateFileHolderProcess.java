package io.github.uidgen.worker;

import java.nio.file.Path;

/**
 * The main class of a second JVM that claims a static worker ID, records a mark and then waits to be killed; it
 * stands for another instance on the same machine.
 */
public final class StateFileHolderProcess {

	/** Printed once the worker ID is claimed and the mark recorded. */
	static final String READY = "READY";

	private StateFileHolderProcess() {
	}

	/**
	 * Claims, renews and waits.
	 * @param args worker ID, state file, mark
	 * @throws InterruptedException never in practice: the process is killed
	 */
	public static void main(String[] args) throws InterruptedException {
		long workerId = Long.parseLong(args[0]);
		StaticWorkerIdAssigner assigner = new StaticWorkerIdAssigner(workerId, Path.of(args[1]));
		assigner.assign(workerId);
		assigner.renew(workerId, Long.parseLong(args[2]));
		System.out.println(READY);
		System.out.flush();
		Thread.sleep(120_000);
	}

}
