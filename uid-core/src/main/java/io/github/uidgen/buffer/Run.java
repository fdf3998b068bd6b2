package io.github.uidgen.buffer;

/**
 * One thread's run of consecutive IDs, claimed from the ring at once: {@code next} up to (excluding) {@code end},
 * good while the ring's run generation is still {@code generation}. Only its own thread touches it.
 */
final class Run {

	long next;

	long end;

	long generation;

	/** How many IDs the next claim asks for. */
	int length = 1;

}
