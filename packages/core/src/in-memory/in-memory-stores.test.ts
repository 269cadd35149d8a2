import { describeLongTermMemoryConformance } from '../testing/index';
import { InMemoryLongTermMemory } from './in-memory-long-term-memory';

describeLongTermMemoryConformance('InMemoryLongTermMemory', ({ clock }) => new InMemoryLongTermMemory({ clock }));
