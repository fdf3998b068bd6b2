package io.github.uidgen.autoconfigure.data.jpa;

import org.springframework.data.repository.ListCrudRepository;

/**
 * The repository the test saves orders through.
 */
public interface PurchaseOrderRepository extends ListCrudRepository<PurchaseOrder, Long> {

}
