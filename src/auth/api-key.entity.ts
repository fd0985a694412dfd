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

  /** From this instant the key answers 403 API_KEY_DISABLED; null: never. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** SHA-256 of the secret the last rotation replaced: it works until `previousKeyEndsAt`. */
  @Column({ name: 'previous_key_hash', type: 'text', nullable: true })
  previousKeyHash!: string | null;

  @Column({ name: 'previous_key_ends_at', type: 'timestamptz', nullable: true })
  previousKeyEndsAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
