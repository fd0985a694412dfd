import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

const bigintAsNumber = { to: (value: number) => value, from: (value: string | number) => Number(value) };

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** SHA-256 of the complete key; the key itself is never stored. */
  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  @Column({ type: 'text' })
  prefix!: string;

  @Column({ type: 'integer' })
  rpm!: number;

  @Column({ name: 'monthly_quota', type: 'bigint', transformer: bigintAsNumber })
  monthlyQuota!: number;

  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
