package io.github.uidgen.shardingsphere.app;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;

/** A MyBatis-Plus entity of the table sharded by database (UID_MOD) and month (UID_INTERVAL). */
@TableName("t_order")
public class Order {

	@TableId(type = IdType.ASSIGN_ID)
	private Long id;

	private String item;

	public Order() {
	}

	public Order(Long id, String item) {
		this.id = id;
		this.item = item;
	}

	public Long getId() {
		return this.id;
	}

	public void setId(Long id) {
		this.id = id;
	}

	public String getItem() {
		return this.item;
	}

	public void setItem(String item) {
		this.item = item;
	}

}
