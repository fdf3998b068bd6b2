/**
 * The worker-ID SPI: an assigner hands each generator a worker ID and that worker's high-water mark, keeps the
 * mark ahead of issue and takes the ID back on close; plus the static (configured) assigner. What uid's own
 * assigners share internally lives in {@code io.github.uidgen.worker.support}.
 */
package io.github.uidgen.worker;
