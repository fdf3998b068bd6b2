package io.github.uidgen.autoconfigure.data;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Saves entities through a repository from several threads at once and collects the IDs they came back with.
 */
public final class RepositorySaves {

	private RepositorySaves() {
	}

	/**
	 * Saves {@code threads * perThread} entities.
	 * @param threads the threads saving at once
	 * @param perThread the saves of each thread
	 * @param save saves the n-th entity and returns its ID
	 * @return every ID, in no particular order
	 * @throws Exception when a save fails or the saves take longer than a minute
	 */
	public static List<Long> concurrently(int threads, int perThread, IntFunction<Long> save) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<List<Long>>> results = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int first = t * perThread;
				results.add(pool.submit(() -> {
					List<Long> ids = new ArrayList<>(perThread);
					for (int i = 0; i < perThread; i++) {
						ids.add(save.apply(first + i));
					}
					return ids;
				}));
			}
			List<Long> ids = new ArrayList<>();
			for (Future<List<Long>> result : results) {
				ids.addAll(result.get(60, TimeUnit.SECONDS));
			}
			return ids;
		}
		finally {
			pool.shutdownNow();
		}
	}

}
