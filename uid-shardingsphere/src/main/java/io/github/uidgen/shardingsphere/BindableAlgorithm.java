package io.github.uidgen.shardingsphere;

/**
 * An algorithm of uid that ShardingSphere creates itself and {@link UidShardingSphere} then binds to the
 * application's generator.
 */
interface BindableAlgorithm {

	/**
	 * Binds the algorithm, checking that the application has what it needs.
	 * @param source what the application gives
	 * @param name the algorithm's name in the YAML, for messages
	 * @throws IllegalStateException when the application lacks what the algorithm needs, or another running
	 * application has bound it
	 */
	void bind(UidSource source, String name);

	/**
	 * Unbinds the algorithm, if it is still bound to the source.
	 * @param source the source it was bound to
	 */
	void unbind(UidSource source);

}
